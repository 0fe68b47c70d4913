import { createMessageBatch, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { probeAudio } from "../../test/support/audio-probe";
import { call } from "../../test/support/client";
import { audioObjects, database, renderJobs } from "../db/index";
import { audioObjectPath } from "../kernel/audio-objects";
import type { ClaimedJob } from "../kernel/render-contract";
import { renderEnv } from "../../test/support/render-store";
import { consumeRenderBatch } from "./consumer";
import { offlineSynthesizer } from "./engine/offline";
import { concatBytes } from "./engine/pcm";
import type { Synthesizer } from "./providers/synthesizer";

/** The MPEG frames of an MP3: what follows its ID3v2 tag (the 10-byte header and a syncsafe size). */
function afterTag(bytes: Uint8Array): Uint8Array {
  if (String.fromCharCode(...bytes.subarray(0, 3)) !== "ID3") return bytes;
  const size = (bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9];
  return bytes.subarray(10 + size);
}

const PARAGRAPH = "The council met on Tuesday evening to discuss the new cycling lanes, and residents came to listen.";
/** Twenty paragraphs: seconds of synthesis, so the first frames come long before the render ends. */
const TEXT = Array.from({ length: 20 }, (_, i) => `Paragraph ${i + 1}. ${PARAGRAPH}`).join("\n\n");

async function job(id: string, text = TEXT) {
  await database(env).insert(renderJobs).values({ id, text, priority: "high" });
}

const jobRow = (id: string) => database(env).select().from(renderJobs).where(eq(renderJobs.id, id)).get();

describe("GET /v1/jobs/{job_id}/stream.mp3", () => {
  it("plays the MP3 while the job renders: the first frames before it is done, the whole a valid MP3 that is the stored file's frames", async () => {
    await job("job-stream");
    const res = await call("/v1/jobs/job-stream/stream.mp3");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("content-length")).toBeNull();
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    // The ID3 tag, then frames of the first paragraph while the rest is still being voiced.
    while (afterTag(concatBytes(chunks)).byteLength === 0 || chunks.length < 2) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      chunks.push(value!);
    }
    expect((await jobRow("job-stream"))!.state).toBe("running");
    // Nothing of this job is recorded yet (rows a previous file's renders record late may be there: compared by key below).
    const recordedWhileRendering = (await database(env).select({ key: audioObjects.key }).from(audioObjects).all()).map((r) => r.key);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const streamed = concatBytes(chunks);

    // The render ends as the Queue's would have: the job done, the audio stored and recorded.
    let done = await jobRow("job-stream");
    for (let i = 0; done!.state !== "done" && i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = await jobRow("job-stream");
    }
    expect(done).toMatchObject({ state: "done", attempts: 1 });
    expect(recordedWhileRendering).not.toContain(done!.audioKey);
    const stored = new Uint8Array(await (await env.AUDIO.get(audioObjectPath(done!.audioKey!, "mp3")))!.arrayBuffer());
    expect(afterTag(streamed)).toEqual(afterTag(stored));

    const probe = await probeAudio(streamed, "mp3");
    const row = (await database(env).select().from(audioObjects).where(eq(audioObjects.key, done!.audioKey!)).get())!;
    expect(probe).toMatchObject({ codec: "mp3", channels: 1, sample_rate: 24_000 });
    // LAME's delay and the last frame's padding: at most about 0.12 s (audio-files.test.ts).
    expect(Math.abs(probe.duration - row.durationSeconds)).toBeLessThanOrEqual(0.12);
    expect(row.durationSeconds).toBeGreaterThan(60);

    // Once done, the stream URL is the stored file.
    const after = await call("/v1/jobs/job-stream/stream.mp3", { redirect: "manual" });
    expect(after.status).toBe(302);
    // A raw-text job's audio is private: its URL is a capability (workers/kernel/audio-capability.ts), not the content key.
    const location = after.headers.get("location")!;
    expect(location).toMatch(/\/v1\/audio\/[\w-]+\.mp3$/);
    expect(location).not.toContain(done!.audioKey!);
    const served = await call(new URL(location).pathname);
    expect(served.status).toBe(200);
  }, 120_000);

  it("keeps the render Queue off a job a stream renders until its lease is over, and hands a queued one back to a stream", async () => {
    const { store } = await import("../../test/support/render-store");
    await job("job-leased", "A short one.");
    const claim = await store.claimJob("job-leased", "stream");
    expect(claim).toMatchObject({ owned: true, text: "A short one." });
    const queued = await store.claimJob("job-leased");
    expect(queued).toMatchObject({ streamedForSeconds: expect.any(Number) });
    // Ten minutes: longer than the longest render (docs/narration.md "Listening while it renders").
    expect((queued as { streamedForSeconds: number }).streamedForSeconds).toBeGreaterThan(590);
    expect((queued as { streamedForSeconds: number }).streamedForSeconds).toBeLessThanOrEqual(600);
    // A second listener's stream renders too, but the job stays the first one's.
    expect(await store.claimJob("job-leased", "stream")).toMatchObject({ owned: false });
    expect(await store.holdsJob("job-leased", 1)).toBe(true);
    // A failed stream gives the job back to the Queue at once.
    await store.retryJob("job-leased", "no_provider: offline/en-US-female: timeout", true);
    expect(await jobRow("job-leased")).toMatchObject({ state: "queued", streamedUntil: null });
    expect(await store.claimJob("job-leased")).toMatchObject({ owned: true, attempt: 2 });
    // A stream takes over the job the Queue now runs; the Queue's attempt no longer holds it.
    expect(await store.claimJob("job-leased", "stream")).toMatchObject({ owned: true, attempt: 3 });
    expect(await store.holdsJob("job-leased", 2)).toBe(false);
    expect(await store.holdsJob("job-leased", 3)).toBe(true);
    expect(await store.claimJob("job-leased")).toMatchObject({ streamedForSeconds: expect.any(Number) });
  });

  it("takes over a job the render Queue is running: the Queue's render stops before its next paragraph, and the stream's is the job's", async () => {
    await job("job-taken");
    // The Queue's render runs here, its paragraphs counted as the engine voices them; the stream's runs in the render Worker.
    const voicedByQueue: string[] = [];
    const counted: Synthesizer = {
      synthesize: (text, ...rest) => {
        voicedByQueue.push(text);
        return offlineSynthesizer.synthesize(text, ...rest);
      },
    };
    const batch = createMessageBatch("narration-render", [{ id: "m-taken", timestamp: new Date(), attempts: 1, body: { job_id: "job-taken" } }]);
    const ack = vi.spyOn(batch.messages[0], "ack");
    const retry = vi.spyOn(batch.messages[0], "retry");
    const send = vi.spyOn(env.RENDER_QUEUE, "send");
    const queue = consumeRenderBatch(batch, renderEnv, { offline: counted });
    while (voicedByQueue.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await jobRow("job-taken")).toMatchObject({ state: "running", attempts: 1, streamedUntil: null });

    const res = await call("/v1/jobs/job-taken/stream.mp3");
    expect(res.status).toBe(200);
    const streamed = new Uint8Array(await res.arrayBuffer());
    await queue;
    // The Queue's render gave the job up without an error of its own, and voiced a few of the 20 paragraphs, not all.
    expect(ack).toHaveBeenCalled();
    expect(retry).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
    expect(voicedByQueue.length).toBeLessThan(10);
    let done = await jobRow("job-taken");
    for (let i = 0; done!.state !== "done" && i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = await jobRow("job-taken");
    }
    expect(done).toMatchObject({ state: "done", attempts: 2, error: null });
    const stored = new Uint8Array(await (await env.AUDIO.get(audioObjectPath(done!.audioKey!, "mp3")))!.arrayBuffer());
    expect(afterTag(streamed)).toEqual(afterTag(stored));
  }, 120_000);

  it("leaves a job taken over by a stream to the stream: the Queue's render, finishing first, only records its audio", async () => {
    const { completeJob, store } = await import("../../test/support/render-store");
    await job("job-raced", "A short one.");
    const byQueue = (await store.claimJob("job-raced")) as ClaimedJob;
    const byStream = (await store.claimJob("job-raced", "stream")) as ClaimedJob;
    await completeJob(byQueue);
    expect(await jobRow("job-raced")).toMatchObject({ state: "running", attempts: 2, audioKey: null });
    await completeJob(byStream);
    expect(await jobRow("job-raced")).toMatchObject({ state: "done", attempts: 2 });
  });

  it("answers 404 for an unknown job and for a failed one", async () => {
    expect((await call("/v1/jobs/nope/stream.mp3")).status).toBe(404);
    await database(env).insert(renderJobs).values({ id: "job-failed", text: "x", state: "failed", error: "no_provider" });
    expect((await call("/v1/jobs/job-failed/stream.mp3")).status).toBe(404);
  });
});
