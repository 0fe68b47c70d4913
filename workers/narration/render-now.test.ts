import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { database, listeners } from "../db";
import { mintToken } from "../kernel/listener-tokens";

afterEach(() => vi.restoreAllMocks());

/** docs/narration-api.md "render-now", written out so that a changed limit fails here: the in-flight cap (default 3), */
const CAP = 3;
/** a new listener's daily budget, 5 on the first day and 5 more for each whole day of age, */
const FIRST_DAY_RENDERS = 5;
const RENDERS_GAINED_PER_DAY = 5;
/** and 20 new renders per hour per address. */
const RENDERS_PER_HOUR_PER_ADDRESS = 20;

async function listener(over: Partial<typeof listeners.$inferInsert> = {}) {
  const { token, hash, encrypted } = await mintToken(env);
  const email = `l-${crypto.randomUUID()}@example.test`;
  const [row] = await database(env)
    .insert(listeners)
    .values({ email, tokenHash: hash, tokenEncrypted: encrypted, ...over })
    .returning();
  return { id: row.id, token };
}

async function article(slug: string, extra = "") {
  await env.DB.prepare(
    `INSERT INTO articles (slug, title, publisher, vertical, body_text, content_hash ${extra ? ", visibility, owner_listener_id" : ""})
     VALUES (?, 'Title', 'Pub', 'tech', 'Body.', 'h' ${extra})`,
  )
    .bind(slug)
    .run();
  return (await env.DB.prepare("SELECT id FROM articles WHERE slug = ?").bind(slug).first<{ id: number }>())!.id;
}

const renderNow = (slug: string, token: string, voice?: string, ip?: string) =>
  call(`/v1/articles/${slug}/render-now`, { ...jsonBody("POST", { listener_token: token, voice }), ip });

describe("POST /v1/articles/{slug}/render-now (docs/rules.md 3)", () => {
  it("202 with Location to the polling path and a new priority-high job for the listener", async () => {
    const l = await listener();
    const articleId = await article("a1");
    const send = vi.spyOn(env.RENDER_QUEUE, "send");
    const res = await renderNow("a1", l.token, "en-GB-male");
    expect(res.status).toBe(202);
    expect(res.headers.get("location")).toBe(`${testVars.BASE_URL}/v1/articles/a1/audio`);
    const body = await res.json<{ job_id: string; state: string }>();
    expect(body).toMatchObject({ slug: "a1", state: "queued", audio_url: null });
    // Plays while it renders (docs/narration.md "Listening while it renders").
    expect(body).toMatchObject({ stream_url: `${testVars.BASE_URL}/v1/jobs/${body.job_id}/stream.mp3` });
    const job = await env.DB.prepare("SELECT * FROM render_jobs WHERE id = ?").bind(body.job_id).first();
    expect(job).toMatchObject({ article_id: articleId, listener_id: l.id, priority: "high", state: "queued", voice: "en-GB-male" });
    expect(send).toHaveBeenCalledExactlyOnceWith({ job_id: body.job_id }, { contentType: "json" });
    expect(await env.RENDER_GATE.getByName(String(l.id)).inFlight()).toBe(1);
  });

  it("200 with the audio URLs when a done job exists, and no new job", async () => {
    const l = await listener();
    const articleId = await article("a2");
    const key = "d".repeat(64);
    await env.DB.prepare(
      "INSERT INTO render_jobs (id, article_id, state, audio_key, provider, voice, requested_voice, fallback) VALUES ('j-done', ?, 'done', ?, 'workers-ai', 'asteria', NULL, 0)",
    )
      .bind(articleId, key)
      .run();
    await env.DB.prepare("UPDATE articles SET audio_key = ?, listen_seconds = 42 WHERE id = ?").bind(key, articleId).run();
    const res = await renderNow("a2", l.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      slug: "a2",
      language: "en",
      language_source: "detected",
      state: "done",
      job_id: "j-done",
      audio_url: `${testVars.BASE_URL}/v1/audio/${key}.mp3`,
      opus_url: `${testVars.BASE_URL}/v1/audio/${key}.opus`,
      wav_url: `${testVars.BASE_URL}/v1/audio/${key}.wav`,
      stream_url: null,
      listen_seconds: 42,
      provider: "workers-ai",
      voice: "asteria",
      quality: "neural",
      fallback: false,
      error: null,
    });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first("n")).toBe(1);
  });

  it("a repeat while the listener's job for the article is in flight answers 202 with the same job and no new slot", async () => {
    const l = await listener();
    await article("a3");
    const first = await (await renderNow("a3", l.token)).json<{ job_id: string }>();
    const second = await renderNow("a3", l.token);
    expect(second.status).toBe(202);
    expect((await second.json<{ job_id: string }>()).job_id).toBe(first.job_id);
    expect(await env.RENDER_GATE.getByName(String(l.id)).inFlight()).toBe(1);
  });

  it("concurrent first requests for one article start exactly one job and take one slot", async () => {
    const l = await listener();
    await article("race");
    const send = vi.spyOn(env.RENDER_QUEUE, "send");
    const results = await Promise.all(Array.from({ length: 20 }, () => renderNow("race", l.token)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(202));
    const ids = new Set(await Promise.all(results.map(async (r) => (await r.json<{ job_id: string }>()).job_id)));
    expect(ids.size).toBe(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs WHERE listener_id = ?").bind(l.id).first("n")).toBe(1);
    expect(send).toHaveBeenCalledOnce();
    expect(await env.RENDER_GATE.getByName(String(l.id)).inFlight()).toBe(1);
  });

  it("429 with Retry-After at the cap; a released slot lets the next one through", async () => {
    const l = await listener();
    for (let i = 0; i <= CAP; i++) await article(`cap-${i}`);
    const ids: string[] = [];
    for (let i = 0; i < CAP; i++) {
      const res = await renderNow(`cap-${i}`, l.token);
      expect(res.status).toBe(202);
      ids.push((await res.json<{ job_id: string }>()).job_id);
    }
    const refused = await renderNow(`cap-${CAP}`, l.token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(15);
    // What the render consumer does when a job finishes.
    await env.RENDER_GATE.getByName(String(l.id)).release(ids[0]);
    expect((await renderNow(`cap-${CAP}`, l.token)).status).toBe(202);
  });

  it("concurrent render-now requests never exceed the cap", async () => {
    const l = await listener();
    const n = CAP * 4;
    for (let i = 0; i < n; i++) await article(`burst-${i}`);
    const results = await Promise.all(Array.from({ length: n }, (_, i) => renderNow(`burst-${i}`, l.token)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(CAP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(n - CAP);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs WHERE listener_id = ?").bind(l.id).first("n")).toBe(CAP);
    expect(await env.RENDER_GATE.getByName(String(l.id)).inFlight()).toBe(CAP);
  });

  it("50 concurrent requests over more articles than the cap: every 202 names a queued job, at most the cap of them", async () => {
    // The attack of issue 29 item 6: a request joined a job row that a concurrent request deleted
    // when the gate refused its slot, so a 202 named a job that never ran.
    const l = await listener();
    const slugs = Array.from({ length: CAP + 1 }, (_, i) => `fifty-${i}`);
    for (const slug of slugs) await article(slug);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => renderNow(slugs[i % slugs.length], l.token)));
    expect(results.every((r) => r.status === 202 || r.status === 429)).toBe(true);
    const accepted = await Promise.all(results.filter((r) => r.status === 202).map((r) => r.json<{ job_id: string; slug: string }>()));
    const jobIds = new Set(accepted.map((a) => a.job_id));
    expect(accepted.length).toBeGreaterThan(0);
    expect(jobIds.size).toBeLessThanOrEqual(CAP);
    expect(new Set(accepted.map((a) => a.slug)).size).toBeLessThanOrEqual(CAP);
    for (const id of jobIds) {
      const job = await env.DB.prepare("SELECT state, listener_id FROM render_jobs WHERE id = ?").bind(id).first();
      expect(job, id).toEqual({ state: "queued", listener_id: l.id });
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first("n")).toBe(jobIds.size);
    expect(await env.RENDER_GATE.getByName(String(l.id)).inFlight()).toBe(jobIds.size);
  });

  it("each listener has their own cap", async () => {
    const [a, b] = [await listener(), await listener()];
    for (let i = 0; i < CAP; i++) await article(`own-${i}`);
    for (let i = 0; i < CAP; i++) expect((await renderNow(`own-${i}`, a.token)).status).toBe(202);
    expect((await renderNow("own-0", b.token)).status).toBe(202);
  });

  it("404 for an unknown listener token, an unknown article, or another listener's private article", async () => {
    const l = await listener();
    const other = await listener();
    await article("mine");
    await article("private-other", `, 'listener_private', ${other.id}`);
    expect((await renderNow("mine", "not-a-token")).status).toBe(404);
    expect((await renderNow("missing", l.token)).status).toBe(404);
    expect((await renderNow("private-other", l.token)).status).toBe(404);
    expect((await renderNow("private-other", other.token)).status).toBe(202);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs WHERE listener_id = ?").bind(l.id).first("n")).toBe(0);
  });

  it("releases the slot when the Queue refuses the job", async () => {
    const l = await listener();
    await article("q1");
    vi.spyOn(env.RENDER_QUEUE, "send").mockRejectedValue(new Error("down"));
    expect((await renderNow("q1", l.token)).status).toBe(503);
    expect(await env.RENDER_GATE.getByName(String(l.id)).inFlight()).toBe(0);
  });

  it("422 without a listener_token", async () => {
    await article("v1");
    expect((await call("/v1/articles/v1/render-now", jsonBody("POST", {}))).status).toBe(422);
  });
});

describe("render-now spends the operator's money only within bounds (issue 29, item 5)", () => {
  /** Renders `slug` for the listener and frees its slot, as the render consumer does when the job is done. */
  async function renderAndFinish(slug: string, l: { id: number; token: string }, ip?: string) {
    const res = await renderNow(slug, l.token, undefined, ip);
    if (res.status === 202) await env.RENDER_GATE.getByName(String(l.id)).release((await res.clone().json<{ job_id: string }>()).job_id);
    return res;
  }

  it("a new listener starts at most 5 renders in 24 hours, however fast each one finishes", async () => {
    const l = await listener();
    for (let i = 0; i <= FIRST_DAY_RENDERS; i++) await article(`day-${i}`);
    for (let i = 0; i < FIRST_DAY_RENDERS; i++) expect((await renderAndFinish(`day-${i}`, l)).status).toBe(202);
    const refused = await renderNow(`day-${FIRST_DAY_RENDERS}`, l.token);
    expect(refused.status).toBe(429);
    // The oldest render leaves the budget a day after it started.
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first("n")).toBe(FIRST_DAY_RENDERS);
  });

  it("the budget grows with the account's age, and a paying listener has the largest from the first day", async () => {
    const old = await listener({ createdAt: new Date(Date.now() - 2.5 * 24 * 3_600_000) });
    const paying = await listener({ plan: "plus" });
    const budget = FIRST_DAY_RENDERS + 2 * RENDERS_GAINED_PER_DAY;
    for (let i = 0; i <= budget; i++) await article(`age-${i}`);
    for (let i = 0; i < budget; i++) expect((await renderAndFinish(`age-${i}`, old)).status, `render ${i}`).toBe(202);
    expect((await renderNow(`age-${budget}`, old.token)).status).toBe(429);
    for (let i = 0; i <= FIRST_DAY_RENDERS; i++) expect((await renderAndFinish(`age-${i}`, paying, "198.51.100.77")).status).toBe(202);
  });

  it("one address creating listeners gets at most 20 renders an hour; the refused one leaves nothing", async () => {
    for (let i = 0; i <= RENDERS_PER_HOUR_PER_ADDRESS; i++) await article(`addr-${i}`);
    for (let i = 0; i < RENDERS_PER_HOUR_PER_ADDRESS; i++) expect((await renderNow(`addr-${i}`, (await listener()).token)).status).toBe(202);
    const last = await listener();
    const refused = await renderNow(`addr-${RENDERS_PER_HOUR_PER_ADDRESS}`, last.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs WHERE listener_id = ?").bind(last.id).first("n")).toBe(0);
    const gate = env.RENDER_GATE.getByName(String(last.id));
    expect([await gate.inFlight(), await gate.startedToday()]).toEqual([0, 0]);
    // Another address is not held to this one's budget.
    expect((await renderNow(`addr-${RENDERS_PER_HOUR_PER_ADDRESS}`, last.token, undefined, "198.51.100.78")).status).toBe(202);
  });

  it("a free listener renders in the article's voice or a free voice only; a paying one in any", async () => {
    const free = await listener();
    const paying = await listener({ plan: "pro" });
    await article("voices");
    await article("own-voice");
    await env.DB.prepare("UPDATE articles SET voice = 'nova' WHERE slug = 'own-voice'").run();
    const refused = await renderNow("voices", free.token, "rachel");
    expect(refused.status).toBe(403);
    expect((await refused.json<{ detail: string }>()).detail).toContain("en-US-female");
    expect((await renderNow("voices", free.token, "no-such-voice")).status).toBe(422);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first("n")).toBe(0);
    expect((await renderNow("own-voice", free.token, "nova")).status).toBe(202);
    expect((await renderNow("voices", free.token, "en-GB-female")).status).toBe(202);
    expect((await renderNow("voices", paying.token, "rachel")).status).toBe(202);
  });
});

describe("GET /v1/articles/{slug}/audio (polling path)", () => {
  it("none, then queued, then done with URLs and listen_seconds", async () => {
    const l = await listener();
    const articleId = await article("p1");
    const poll = async () => (await call("/v1/articles/p1/audio")).json<Record<string, unknown>>();
    expect(await poll()).toMatchObject({ slug: "p1", state: "none", job_id: null, audio_url: null });
    const { job_id } = await (await renderNow("p1", l.token)).json<{ job_id: string }>();
    expect(await poll()).toMatchObject({ state: "queued", job_id });
    const key = "e".repeat(64);
    await env.DB.prepare("INSERT INTO audio_objects (key, provider, voice, duration_seconds) VALUES (?, 'offline', 'v', 61.6)").bind(key).run();
    await env.DB.prepare("UPDATE render_jobs SET state = 'done', audio_key = ? WHERE id = ?").bind(key, job_id).run();
    expect(await poll()).toMatchObject({ state: "done", job_id, audio_url: `${testVars.BASE_URL}/v1/audio/${key}.mp3`, listen_seconds: 62 });
    await env.DB.prepare("UPDATE articles SET audio_key = ?, listen_seconds = 61 WHERE id = ?").bind(key, articleId).run();
    expect(await poll()).toMatchObject({ state: "done", listen_seconds: 61 });
  });

  it("failed carries the error", async () => {
    const articleId = await article("p2");
    await env.DB.prepare("INSERT INTO render_jobs (id, article_id, state, error) VALUES ('jf', ?, 'failed', 'boom')").bind(articleId).run();
    expect(await (await call("/v1/articles/p2/audio")).json()).toMatchObject({ state: "failed", job_id: "jf", error: "boom" });
  });

  it("a listener-private article is 404 except with its owner's token", async () => {
    const owner = await listener();
    await article("p3", `, 'listener_private', ${owner.id}`);
    expect((await call("/v1/articles/p3/audio")).status).toBe(404);
    expect((await call(`/v1/articles/p3/audio?listener_token=${owner.token}`)).status).toBe(200);
    expect((await call("/v1/articles/nope/audio")).status).toBe(404);
  });
});
