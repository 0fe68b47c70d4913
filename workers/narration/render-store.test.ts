import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { renderStoreObjectUrl, type ClaimedJob } from "../kernel/render-contract";
import { completeJob, store } from "../../test/support/render-store";
import { sha256Hex } from "../core/crypto";
import { database, renderJobs } from "../db/index";
import { JobView, jobView } from "./job-view";

// A deep comparison of megabytes element by element takes seconds; their digests compare at once.
const digest = async (bytes: ArrayBuffer | Uint8Array) => sha256Hex(new Uint8Array(bytes));

describe("RenderStore objects, the render Worker's only way to R2", () => {
  // 2 MB crosses whole, 9 MB streams through (kernel/render-contract.ts WHOLE_OBJECT_BYTES), both ways.
  it.each([2 << 20, 9 << 20])("stores a PUT body of known length (%i bytes) at its path, with its type, and answers it to GET", async (size) => {
    const bytes = new Uint8Array(size);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 251;
    const put = await store.fetch(new Request(renderStoreObjectUrl("audio/k.mp3"), { method: "PUT", body: bytes, headers: { "content-type": "audio/mpeg" } }));
    expect(put.status).toBe(201);
    const object = await env.AUDIO.get("audio/k.mp3");
    expect(object?.httpMetadata?.contentType).toBe("audio/mpeg");
    expect(object?.size).toBe(size);
    expect(await digest(await object!.arrayBuffer())).toBe(await digest(bytes));
    const got = await store.fetch(new Request(renderStoreObjectUrl("audio/k.mp3")));
    expect(await digest(await got.arrayBuffer())).toBe(await digest(bytes));
  });

  it("refuses a body of unknown length, writing nothing", async () => {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    void writer.write(new Uint8Array(8)).then(() => writer.close());
    const res = await store.fetch(new Request(renderStoreObjectUrl("audio/x.mp3"), { method: "PUT", body: readable }));
    expect(res.status).toBe(411);
    expect(await env.AUDIO.head("audio/x.mp3")).toBeNull();
  });

  it("answers 404 for a missing object or another path, and 405 for another method", async () => {
    expect((await store.fetch(new Request(renderStoreObjectUrl("master/none.pcm")))).status).toBe(404);
    expect((await store.fetch(new Request("https://render-store.internal/elsewhere"))).status).toBe(404);
    expect((await store.fetch(new Request(renderStoreObjectUrl("audio/k.mp3"), { method: "DELETE" }))).status).toBe(405);
  });

  it("reads a byte range of an object (a stored paragraph's header without its samples), with the object's size", async () => {
    await env.AUDIO.put("paragraphs/p.pcm", new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    const res = await store.fetch(new Request(renderStoreObjectUrl("paragraphs/p.pcm"), { headers: { range: "bytes=2-5" } }));
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe("bytes 2-5/10");
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([2, 3, 4, 5]);
    // A range past the end is cut at it, as a header read of a short paragraph asks.
    const tail = await store.fetch(new Request(renderStoreObjectUrl("paragraphs/p.pcm"), { headers: { range: "bytes=0-16383" } }));
    expect(tail.headers.get("content-range")).toBe("bytes 0-9/10");
    expect((await tail.arrayBuffer()).byteLength).toBe(10);
  });

  it("composes an object from bytes and ranges of stored objects, only when the whole hashes as the render said", async () => {
    await env.AUDIO.put("units/u.bin", new Uint8Array([9, 9, 1, 2, 3, 4, 9]));
    const pieces = [new Uint8Array([7, 8]), { path: "units/u.bin", range: { offset: 2, length: 4 } }, new Uint8Array([5])];
    const whole = new Uint8Array([7, 8, 1, 2, 3, 4, 5]);
    expect(await store.composeObject("audio/c.mp3", pieces, await sha256Hex(whole), "audio/mpeg")).toBe(7);
    const object = await env.AUDIO.get("audio/c.mp3");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(whole);
    expect(object?.httpMetadata?.contentType).toBe("audio/mpeg");
    // Not the bytes hashed, a range past the object's end, an object not stored: refused, and nothing stored.
    expect(await store.composeObject("audio/d.mp3", pieces, await sha256Hex(new Uint8Array([7, 8])))).toEqual({
      refused: "the pieces are not the bytes hashed",
    });
    const hash = await sha256Hex(new Uint8Array([4, 9, 0, 0]));
    const past = await store.composeObject("audio/d.mp3", [{ path: "units/u.bin", range: { offset: 5, length: 4 } }], hash);
    expect(past).toEqual({ refused: "units/u.bin does not hold the range asked for" });
    const none = await store.composeObject("audio/d.mp3", [{ path: "units/none.bin", range: { offset: 0, length: 1 } }], hash);
    expect(none).toEqual({ refused: "units/none.bin does not hold the range asked for" });
    expect(await env.AUDIO.head("audio/d.mp3")).toBeNull();
  });

  it("sizes objects, null where one is missing", async () => {
    await env.AUDIO.put("master/a.pcm", new Uint8Array(10));
    expect(await store.objectSizes(["master/a.pcm", "master/b.pcm"])).toEqual([10, null]);
  });
});

describe("RenderStore jobs", () => {
  const english = { language: "en", language_source: "detected" } as const;
  it("records what a finished render synthesised and reused, which the job view reports once done (null before)", async () => {
    await database(env).insert(renderJobs).values({ id: "job-p", text: "One.\n\nTwo.\n\nThree." });
    const claim = (await store.claimJob("job-p")) as ClaimedJob;
    const running = (await database(env).select().from(renderJobs).where(eq(renderJobs.id, "job-p")).get())!;
    expect(jobView(env, running, null, "private", english)).toMatchObject({ state: "running", characters_synthesized: null, paragraphs_reused: null });
    await completeJob(claim, { characters_synthesized: 5, paragraphs_reused: 2 }, { synthesisMs: 40, encodingMs: 10, markingMs: 5 });
    const done = (await database(env).select().from(renderJobs).where(eq(renderJobs.id, "job-p")).get())!;
    const view = v.parse(JobView, jobView(env, done, null, "private", english));
    expect(view).toMatchObject({ state: "done", characters_synthesized: 5, paragraphs_reused: 2 });
  });
});
