import { renderEnv } from "../../test/support/render-store";
import { createMessageBatch, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { articles, audioObjects, database, listeners, renderJobs } from "../db/index";
import { backoffSeconds, consumeDeadLetters, consumeRenderBatch } from "./consumer";
import { offlineSynthesizer } from "./engine/offline";
import { audioObjectPath, masterObjectPaths } from "../kernel/audio-objects";
import { fakeFetch, tonePcm16 } from "../../test/support/fake-fetch";
import { resetHealth } from "./providers/health";
import { openAiSynthesizer } from "./providers/openai";
import { narratedText } from "../kernel/article-text";
import { keyedParagraphs } from "../kernel/normalize-text";

const db = () => database(env);
const offline = { offline: offlineSynthesizer };

async function insertArticle(): Promise<number> {
  const [row] = await db()
    .insert(articles)
    .values({ slug: "a-story", title: "A story", publisher: "Daily", vertical: "tech", bodyText: "It begins here. It ends there.", contentHash: "h1" })
    .returning({ id: articles.id });
  return row.id;
}

async function insertListener(): Promise<number> {
  const [row] = await db().insert(listeners).values({ email: "l@example.test", tokenHash: "th", tokenEncrypted: "te" }).returning({ id: listeners.id });
  return row.id;
}

async function job(id: string) {
  return db().select().from(renderJobs).where(eq(renderJobs.id, id)).get();
}

function batchOf(...jobIds: string[]) {
  return createMessageBatch(
    "narration-render",
    jobIds.map((job_id, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body: { job_id } })),
  );
}

beforeEach(() => resetHealth());

describe("render queue consumer", () => {
  it("renders an article job, marks it done and gives the article its audio and real duration", async () => {
    const articleId = await insertArticle();
    await db().insert(renderJobs).values({ id: "job-1", articleId });
    await consumeRenderBatch(batchOf("job-1"), renderEnv, offline);
    const done = await job("job-1");
    expect(done).toMatchObject({ state: "done", provider: "offline", voice: "en-US-female", requestedVoice: null, fallback: false, attempts: 1, error: null });
    const article = await db().select().from(articles).where(eq(articles.id, articleId)).get();
    const audio = await db().select().from(audioObjects).where(eq(audioObjects.key, done!.audioKey!)).get();
    expect(article!.audioKey).toBe(done!.audioKey);
    expect(article!.listenSeconds).toBe(Math.round(audio!.durationSeconds));
    expect(await env.AUDIO.head(audioObjectPath(done!.audioKey!, "mp3"))).not.toBeNull();
  });

  it("records the synthesis and encoding time of the render a job ran, and none for audio found cached", async () => {
    await db()
      .insert(renderJobs)
      .values([
        { id: "job-timed", text: "Timed once." },
        { id: "job-cached", text: "Timed once." },
      ]);
    await consumeRenderBatch(batchOf("job-timed"), renderEnv, offline);
    await consumeRenderBatch(batchOf("job-cached"), renderEnv, offline);
    const rendered = await job("job-timed");
    expect(rendered).toMatchObject({ state: "done", synthesisMs: expect.any(Number), encodingMs: expect.any(Number), markingMs: expect.any(Number) });
    expect(await job("job-cached")).toMatchObject({ state: "done", synthesisMs: null, encodingMs: null, markingMs: null });
  });

  it("re-renders a re-published article by the paragraph, and its job records what was synthesised and what reused", async () => {
    const body = ["The ferry left at nine.", "It came back at noon, full of visitors.", "The harbour master waved."];
    const [article] = await db()
      .insert(articles)
      .values({ slug: "a-ferry", title: "A ferry", publisher: "Daily", vertical: "tech", bodyText: body.join("\n\n"), contentHash: "f1" })
      .returning();
    await db().insert(renderJobs).values({ id: "job-first", articleId: article.id });
    await consumeRenderBatch(batchOf("job-first"), renderEnv, offline);
    const narrated = keyedParagraphs(narratedText(article)); // the title, then the three paragraphs
    expect(await job("job-first")).toMatchObject({ state: "done", charactersSynthesized: narrated.join("").length, paragraphsReused: 0 });

    const edited = body.with(1, "It came back at one, half empty.");
    await db()
      .update(articles)
      .set({ bodyText: edited.join("\n\n"), contentHash: "f2" })
      .where(eq(articles.id, article.id));
    await db()
      .insert(renderJobs)
      .values([
        { id: "job-edit", articleId: article.id },
        { id: "job-again", articleId: article.id },
      ]);
    await consumeRenderBatch(batchOf("job-edit"), renderEnv, offline);
    const edit = await job("job-edit");
    expect(edit).toMatchObject({ state: "done", charactersSynthesized: edited[1].length, paragraphsReused: 3 });
    expect((await db().select().from(articles).where(eq(articles.id, article.id)).get())!.audioKey).toBe(edit!.audioKey);
    // The same text again: the whole audio is cached, nothing is synthesised.
    await consumeRenderBatch(batchOf("job-again"), renderEnv, offline);
    expect(await job("job-again")).toMatchObject({ state: "done", audioKey: edit!.audioKey, charactersSynthesized: 0, paragraphsReused: 4 });
  });

  it("renders an article longer than one segment in segments, and the job is done", async () => {
    const bodyText = "Each paragraph of this long article adds a little more to the story. ".repeat(360); // about 25,000 characters
    const [article] = await db()
      .insert(articles)
      .values({ slug: "a-long-read", title: "A long read", publisher: "Daily", vertical: "tech", bodyText, contentHash: "h3" })
      .returning({ id: articles.id });
    await db().insert(renderJobs).values({ id: "job-long", articleId: article.id, voice: "onyx" });
    // A fast fake provider: 0.2 s of tone a request, so the test exercises segmenting, not eSpeak.
    const far = fakeFetch(() => new Response(tonePcm16(0.2, 24_000)));
    await consumeRenderBatch(batchOf("job-long"), renderEnv, { openai: openAiSynthesizer("sk", far.fetch) });
    const done = await job("job-long");
    expect(done).toMatchObject({ state: "done", provider: "openai", voice: "onyx", error: null });
    const audio = await db().select().from(audioObjects).where(eq(audioObjects.key, done!.audioKey!)).get();
    expect(audio!.segments).toBe(3);
    const masters = await Promise.all(masterObjectPaths(done!.audioKey!, 3).map((path) => env.AUDIO.head(path)));
    expect(masters.reduce((n, m) => n + m!.size, 0) / 2 / 24_000).toBeCloseTo(audio!.durationSeconds, 6);
    expect(await env.AUDIO.head(audioObjectPath(done!.audioKey!, "mp3"))).not.toBeNull();
  });

  it("marks the listener a pre-warm rendered for as having had a first render, once", async () => {
    const articleId = await insertArticle();
    const listenerId = await insertListener();
    await db().insert(renderJobs).values({ id: "warm-1", articleId, warmListenerId: listenerId });
    await consumeRenderBatch(batchOf("warm-1"), renderEnv, offline);
    const warmed = await db().select().from(listeners).where(eq(listeners.id, listenerId)).get();
    expect(warmed!.firstRenderDoneAt).toBeInstanceOf(Date);

    await db().insert(renderJobs).values({ id: "warm-2", text: "Another one.", warmListenerId: listenerId });
    await consumeRenderBatch(batchOf("warm-2"), renderEnv, offline);
    const after = await db().select().from(listeners).where(eq(listeners.id, listenerId)).get();
    expect(after!.firstRenderDoneAt).toEqual(warmed!.firstRenderDoneAt);
  });

  it("leaves the article alone when its text changed during the render", async () => {
    const articleId = await insertArticle();
    await db().insert(renderJobs).values({ id: "job-2", articleId });
    const slowOffline = {
      offline: {
        async synthesize(text: string, offer: Parameters<typeof offlineSynthesizer.synthesize>[1]) {
          await db().update(articles).set({ contentHash: "h2" }).where(eq(articles.id, articleId));
          return offlineSynthesizer.synthesize(text, offer);
        },
      },
    };
    await consumeRenderBatch(batchOf("job-2"), renderEnv, slowOffline);
    expect((await job("job-2"))!.state).toBe("done");
    expect((await db().select().from(articles).where(eq(articles.id, articleId)).get())!.audioKey).toBeNull();
  });

  it("acks a redelivered message of a finished job without rendering again", async () => {
    await db().insert(renderJobs).values({ id: "job-3", text: "Done already.", state: "done" });
    const spy = vi.fn(offlineSynthesizer.synthesize);
    const batch = batchOf("job-3");
    const ack = vi.spyOn(batch.messages[0], "ack");
    await consumeRenderBatch(batch, renderEnv, { offline: { synthesize: spy } });
    expect(spy).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalled();
  });

  it("retries a failed render with exponential backoff and keeps the error on the job", async () => {
    await db().insert(renderJobs).values({ id: "job-4", text: "Will fail.", voice: "onyx" });
    const far = fakeFetch(() => new Response("down", { status: 503 }));
    const batch = createMessageBatch("narration-render", [{ id: "m", timestamp: new Date(), attempts: 3, body: { job_id: "job-4" } }]);
    const retry = vi.spyOn(batch.messages[0], "retry");
    await consumeRenderBatch(batch, renderEnv, { openai: openAiSynthesizer("sk", far.fetch) });
    expect(retry).toHaveBeenCalledWith({ delaySeconds: 40 });
    expect(await job("job-4")).toMatchObject({ state: "queued", attempts: 1, error: expect.stringContaining("no_provider") });
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffSeconds)).toEqual([10, 20, 40, 80, 160, 300, 300]);
  });

  it("fails a job with a voice outside the catalogue at once, without retrying", async () => {
    await db().insert(renderJobs).values({ id: "job-6", text: "Hi.", voice: "no-such-voice" });
    const batch = batchOf("job-6");
    const retry = vi.spyOn(batch.messages[0], "retry");
    await consumeRenderBatch(batch, renderEnv, offline);
    expect(retry).not.toHaveBeenCalled();
    expect(await job("job-6")).toMatchObject({ state: "failed", error: expect.stringContaining("unknown_voice") });
  });

  it("fails a job whose article is too long to narrate at once, before any provider is called", async () => {
    const [article] = await db()
      .insert(articles)
      .values({ slug: "a-long-story", title: "A long story", publisher: "Daily", vertical: "tech", bodyText: "Word ".repeat(30_000), contentHash: "h2" })
      .returning({ id: articles.id });
    await db().insert(renderJobs).values({ id: "job-7", articleId: article.id });
    const spy = vi.fn(offlineSynthesizer.synthesize);
    const batch = batchOf("job-7");
    const retry = vi.spyOn(batch.messages[0], "retry");
    const ack = vi.spyOn(batch.messages[0], "ack");
    await consumeRenderBatch(batch, renderEnv, { offline: { synthesize: spy } });
    expect(spy).not.toHaveBeenCalled();
    expect(retry).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalled();
    expect(await job("job-7")).toMatchObject({
      state: "failed",
      attempts: 1,
      error: expect.stringMatching(/^too_long: \d+ characters; one render narrates at most 60000$/),
    });
  });

  it("dead-letters: marks the job failed with its last error and releases the listener's slot", async () => {
    const listenerId = await insertListener();
    await db().insert(renderJobs).values({ id: "job-5", text: "x", listenerId, state: "queued", error: "no_provider: openai down" });
    const gate = env.RENDER_GATE.getByName(String(listenerId));
    await gate.acquire("job-5", 3, 60_000);
    await consumeDeadLetters(
      createMessageBatch("narration-render-dlq", [{ id: "d", timestamp: new Date(), attempts: 1, body: { job_id: "job-5" } }]),
      renderEnv,
    );
    expect(await job("job-5")).toMatchObject({ state: "failed", error: "no_provider: openai down" });
    expect(await gate.inFlight()).toBe(0);
  });
});
