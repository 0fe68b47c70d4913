import { createMessageBatch, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { store } from "../../test/support/render-store";
import { articles, audioObjects, database, renderJobs } from "../db/index";
import type { RenderStoreRpc } from "../kernel/render-contract";
import { consumeRenderBatch } from "./consumer";
import { offlineSynthesizer } from "./engine/offline";

/**
 * One call in, one call out (issue 41 item 4): the render of a queued job asks the RenderStore for the job
 * with all it needs (claimJob: text, voice, language, lexicon), looks for the audio once (findAudio), moves
 * objects as HTTP bodies (fetch), and hands back the result with the new audio's row in one call
 * (completeJob). Every call the render Worker makes through STORE is counted here, by method.
 */

/** `store` with every call counted by method name. */
function counted(through: RenderStoreRpc) {
  const calls: Record<string, number> = {};
  const count =
    <A extends unknown[], R>(name: keyof RenderStoreRpc, call: (...args: A) => R) =>
    (...args: A) => {
      calls[name] = (calls[name] ?? 0) + 1;
      return call(...args);
    };
  const wrapped: RenderStoreRpc = {
    claimJob: count("claimJob", (...a: Parameters<RenderStoreRpc["claimJob"]>) => through.claimJob(...a)),
    claimNext: count("claimNext", (...a: Parameters<RenderStoreRpc["claimNext"]>) => through.claimNext(...a)),
    holdsJob: count("holdsJob", (...a: Parameters<RenderStoreRpc["holdsJob"]>) => through.holdsJob(...a)),
    completeJob: count("completeJob", (...a: Parameters<RenderStoreRpc["completeJob"]>) => through.completeJob(...a)),
    retryJob: count("retryJob", (...a: Parameters<RenderStoreRpc["retryJob"]>) => through.retryJob(...a)),
    failJob: count("failJob", (...a: Parameters<RenderStoreRpc["failJob"]>) => through.failJob(...a)),
    findAudio: count("findAudio", (keys: string[]) => through.findAudio(keys)),
    recordAudio: count("recordAudio", (...a: Parameters<RenderStoreRpc["recordAudio"]>) => through.recordAudio(...a)),
    recordEncoding: count("recordEncoding", (...a: Parameters<RenderStoreRpc["recordEncoding"]>) => through.recordEncoding(...a)),
    fetch: count("fetch", (request: Request) => through.fetch(request)),
    readObjects: count("readObjects", (reads: Parameters<RenderStoreRpc["readObjects"]>[0]) => through.readObjects(reads)),
    composeObject: count("composeObject", (...a: Parameters<RenderStoreRpc["composeObject"]>) => through.composeObject(...a)),
    objectSizes: count("objectSizes", (paths: string[]) => through.objectSizes(paths)),
    lexiconFor: count("lexiconFor", (publisher: string | null) => through.lexiconFor(publisher)),
  };
  return { env: { STORE: wrapped }, calls };
}

const batchOf = (job_id: string) => createMessageBatch("narration-render", [{ id: job_id, timestamp: new Date(), attempts: 1, body: { job_id } }]);

describe("the STORE round trips of one render", () => {
  it("a fresh article of three paragraphs: one claim, one look for the audio, one completion; objects as bodies", async () => {
    const [article] = await database(env)
      .insert(articles)
      .values({
        slug: "three-paragraphs",
        title: "Three",
        publisher: "Daily",
        vertical: "tech",
        bodyText: "One came.\n\nTwo went.\n\nThree stayed.",
        contentHash: "h3",
      })
      .returning();
    await database(env).insert(renderJobs).values({ id: "job-fresh", articleId: article.id });
    const { env: renderEnv, calls } = counted(store);
    await consumeRenderBatch(batchOf("job-fresh"), renderEnv, { offline: offlineSynthesizer });

    const done = await database(env).select().from(renderJobs).where(eq(renderJobs.id, "job-fresh")).get();
    expect(done).toMatchObject({ state: "done" });
    // The audio's row came back with the completion: it is recorded, and the article has the audio.
    expect(await database(env).select().from(audioObjects).where(eq(audioObjects.key, done!.audioKey!)).get()).toMatchObject({ segments: 1 });
    expect((await database(env).select().from(articles).where(eq(articles.id, article.id)).get())?.audioKey).toBe(done!.audioKey);
    // Before (main 496051c): claimJob, lexiconFor, findAudio, recordAudio and completeJob, five calls (17 in all).
    // Objects: the title and each paragraph looked for in one call (readObjects: one GET each before)
    // and stored (4), each one's encoded unit stored (4: pipeline/unit-cache.ts, looked for only beside a
    // stored paragraph), the master, the MP3, the Opus and the word timings. Before a paragraph it voices, the render asks whether the job is still its
    // own (a listener's stream may have taken it over: consumer.ts runJob), at most once a second: once
    // here, twice only if its four short paragraphs took over a second.
    // The batch's lane also looks for a queued job (claimNext) every 50 ms while the render's master is
    // stored after its job is done (consumer.ts NEXT_LOOK_MS): how often depends on the machine.
    const { holdsJob, claimNext: _whileStoring, ...rest } = calls;
    expect(holdsJob).toBeGreaterThanOrEqual(1);
    expect(holdsJob).toBeLessThanOrEqual(2);
    expect(rest).toEqual({ claimJob: 1, findAudio: 1, completeJob: 1, readObjects: 1, fetch: 4 + 4 + 4 });
  });

  it("audio found stored: one claim, one look, one completion, and no object moved", async () => {
    await database(env).insert(renderJobs).values({ id: "job-first", text: "Said once, heard twice." });
    await consumeRenderBatch(batchOf("job-first"), counted(store).env, { offline: offlineSynthesizer });
    // Queued after the first is done: queued before, the first batch's lane could take it while its
    // master is stored (consumer.ts claimNext), and this batch would find it done.
    await database(env).insert(renderJobs).values({ id: "job-again", text: "Said once, heard twice." });
    const { env: renderEnv, calls } = counted(store);
    await consumeRenderBatch(batchOf("job-again"), renderEnv, { offline: offlineSynthesizer });
    expect(await database(env).select().from(renderJobs).where(eq(renderJobs.id, "job-again")).get()).toMatchObject({ state: "done" });
    // Before (main 496051c): four, lexiconFor the fourth.
    expect(calls).toEqual({ claimJob: 1, findAudio: 1, completeJob: 1 });
  });
});
