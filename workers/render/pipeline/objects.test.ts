import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type RenderStoreRpc, WHOLE_OBJECT_BYTES } from "../../kernel/render-contract";
import { sha256Hex } from "../../core/crypto";
import { store } from "../../../test/support/render-store";
import { putParts, readObject, readObjects } from "./objects";

const digest = (bytes: Uint8Array) => sha256Hex(bytes);

/** `count` bytes counting up from `from`, modulo 251. */
const bytesFrom = (from: number, count: number) => Uint8Array.from({ length: count }, (_, i) => (from + i) % 251);

describe("objects moved through the RenderStore", () => {
  // Under WHOLE_OBJECT_BYTES the parts cross joined, as one buffer; over it they stream one by one.
  it.each([
    ["joined into one buffer", [bytesFrom(0, 10), bytesFrom(10, 300_000), bytesFrom(300_010, 7)]],
    ["streamed part by part", [bytesFrom(0, 10), bytesFrom(10, WHOLE_OBJECT_BYTES), bytesFrom(WHOLE_OBJECT_BYTES + 10, 7)]],
  ])("stores parts %s as one object, in order, with its type", async (_, parts) => {
    const size = parts.reduce((n, p) => n + p.byteLength, 0);
    expect(await putParts(store, "audio/parts.mp3", parts, "audio/mpeg")).toBe(size);
    const object = await env.AUDIO.head("audio/parts.mp3");
    expect(object?.size).toBe(size);
    expect(object?.httpMetadata?.contentType).toBe("audio/mpeg");
    expect(await digest((await readObject(store, "audio/parts.mp3"))!)).toBe(await digest(bytesFrom(0, size)));
  });

  it("reads many objects in calls of up to WHOLE_OBJECT_BYTES, asking again for the rest, and one larger than that alone as a body", async () => {
    const third = Math.floor(WHOLE_OBJECT_BYTES / 3) + 1; // three do not fit in one call
    for (const [i, size] of [third, third, third, WHOLE_OBJECT_BYTES + 1].entries()) await env.AUDIO.put(`units/o${i}.bin`, bytesFrom(i, size));
    await env.AUDIO.put("paragraphs/short.pcm", bytesFrom(7, 10));
    const calls: string[] = [];
    const counting = Object.create(store) as RenderStoreRpc;
    counting.readObjects = async (reads) => {
      calls.push(`readObjects ${reads.length}`);
      return store.readObjects(reads);
    };
    counting.fetch = async (request) => {
      calls.push(`fetch ${new URL(request.url).pathname.split("/").pop()}`);
      return store.fetch(request);
    };
    const read = await readObjects(counting, [
      { path: "units/o0.bin" },
      { path: "units/o1.bin" },
      { path: "units/none.bin" },
      { path: "units/o2.bin" },
      { path: "units/o3.bin" },
      { path: "paragraphs/short.pcm", range: { offset: 2, length: 16_384 } },
    ]);
    // The first call answers o0, o1 and the missing one (o2 would pass the bytes a call carries), the
    // second o2; o3 is over them alone, so no call answers it and it crosses as a body.
    expect(calls).toEqual(["readObjects 6", "readObjects 3", "readObjects 2", "fetch o3.bin", "readObjects 1"]);
    for (const i of [0, 1, 3]) expect(await digest(read[i]!.bytes)).toBe(await digest(bytesFrom(Math.min(i, 2), third)));
    expect(read[2]).toBeNull();
    expect(read[4]!.size).toBe(WHOLE_OBJECT_BYTES + 1);
    expect(await digest(read[4]!.bytes)).toBe(await digest(bytesFrom(3, WHOLE_OBJECT_BYTES + 1)));
    // A range past the object's end is cut at it, with the object's whole size.
    expect(read[5]).toEqual({ bytes: bytesFrom(9, 8), size: 10 });
  });
});
