import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { WHOLE_OBJECT_BYTES } from "../../kernel/render-contract";
import { sha256Hex } from "../../core/crypto";
import { store } from "../../../test/support/render-store";
import { putParts, readObject } from "./objects";

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
});
