import { describe, expect, it } from "vitest";
import type { RenderStoreRpc } from "../../kernel/render-contract";
import { store } from "../../../test/support/render-store";
import { putParts } from "./objects";
import { loadUnits, rememberUnit, unitBytes, unitObjectPath, type EncodedUnit } from "./unit-cache";

/** A unit of `mp3Bytes` of frames and three packets, its bytes counting up from `seed`. */
const unitOf = (seed: number, mp3Bytes: number): EncodedUnit => ({
  mp3: Uint8Array.from({ length: mp3Bytes }, (_, i) => (seed + i) % 251),
  opus: [1, 2, 3].map((n) => Uint8Array.from({ length: 40 * n }, (_, i) => (seed + n + i) % 251)),
});

/** `store`, counting the unit objects it is asked to read. */
function counting(): { store: RenderStoreRpc; read: string[] } {
  const read: string[] = [];
  const through = Object.create(store) as RenderStoreRpc;
  through.readObjects = async (reads) => {
    read.push(...reads.map((r) => r.path));
    return store.readObjects(reads);
  };
  return { store: through, read };
}

describe("encoded units held by the isolate", () => {
  it("reads a unit it does not hold from the store, and holds it for the next render; a unit never stored is null", async () => {
    const path = unitObjectPath(`held-${Date.now()}`, 9600);
    const unit = unitOf(1, 5000);
    await putParts(store, path, unitBytes(unit));
    const missing = unitObjectPath(`never-${Date.now()}`, 0);

    const first = counting();
    expect(await loadUnits(first.store, [path, missing])).toEqual([unit, null]);
    expect(first.read).toEqual([path, missing]);

    const second = counting();
    expect(await loadUnits(second.store, [path, missing, path])).toEqual([unit, null, unit]);
    expect(second.read).toEqual([missing]);
  });

  it("lays a unit it encoded without reading it back, and reads again the least recently used once it holds 8 MB", async () => {
    const stamp = Date.now();
    const paths = Array.from({ length: 10 }, (_, i) => unitObjectPath(`lru-${stamp}-${i}`, 0));
    // Ten units of just under 1 MiB, each stored as a render stores what it encodes: eight fit, so the
    // first two are dropped from memory.
    const units = paths.map((_, i) => unitOf(i, (1 << 20) - 4096));
    for (const [i, path] of paths.entries()) await putParts(store, path, unitBytes(rememberUnit(path, units[i])));

    const held = counting();
    expect(await loadUnits(held.store, paths.slice(2))).toEqual(units.slice(2));
    expect(held.read).toEqual([]);
    const dropped = counting();
    expect(await loadUnits(dropped.store, paths.slice(0, 2))).toEqual(units.slice(0, 2));
    expect(dropped.read).toEqual(paths.slice(0, 2));
  });
});
