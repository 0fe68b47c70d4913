import { env } from "cloudflare:workers";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { call } from "../../test/support/client";
import { addArticle, addListener, addPlays, HOUR } from "../../test/support/articles";
import { feedTokenOf } from "../../test/support/listeners";
import type { Caller } from "./caller";
import { invoke } from "./call";
import { digest, get_article, get_audio_url, list_subscriptions, search_articles, subscribe_topic } from "./tools";

/**
 * The tools through the functions every surface calls, with the identity the OAuth and x402
 * layers supply (docs/rules.md 4, "Agent tools"); paid-tools.test.ts and oauth-tools.test.ts drive them
 * through those layers.
 */

const anonymous: Caller = { agentKey: "ip:198.51.100.1", listenerId: null, scopes: [], paid: false, requestId: null };
const actingFor = (listenerId: number, over: Partial<Caller> = {}): Caller => ({
  agentKey: "oauth:client-a",
  listenerId,
  scopes: ["articles:read", "subscriptions:write", "digest:run"],
  paid: false,
  requestId: null,
  ...over,
});

describe("search_articles", () => {
  it("finds public articles only, with the fields docs/rules.md names, up to limit", async () => {
    await addArticle({
      slug: "kiwi-public",
      title: "Kiwi harvest",
      bodyText: "Kiwi orchards.",
      vertical: "culture",
      audioKey: "a".repeat(64),
      listenSeconds: 61,
    });
    await addArticle({ slug: "kiwi-stub", title: "Kiwi stub", bodyText: "Kiwi.", vertical: "culture", visibility: "publisher_only" });
    for (let i = 0; i < 3; i++) await addArticle({ title: `Kiwi market ${i}`, bodyText: "Kiwi trade.", vertical: "finance" });
    const all = await search_articles.run({ query: "kiwi", limit: 20 }, anonymous, env);
    expect(all.articles.map((a) => a.slug)).not.toContain("kiwi-stub");
    expect(all.articles).toHaveLength(4);
    const culture = await search_articles.run({ query: "kiwi", vertical: "culture", limit: 20 }, anonymous, env);
    expect(culture.articles).toEqual([
      {
        slug: "kiwi-public",
        title: "Kiwi harvest",
        publisher: "Example Times",
        vertical: "culture",
        snippet: expect.stringContaining("<mark>Kiwi</mark>"),
        audio_url: `${env.BASE_URL}/v1/audio/${"a".repeat(64)}.mp3`,
        listen_seconds: 61,
      },
    ]);
    expect((await search_articles.run({ query: "kiwi", limit: 2 }, anonymous, env)).articles).toHaveLength(2);
  });

  it("fills the page with public articles when stubs rank first", async () => {
    for (let i = 0; i < 4; i++) await addArticle({ title: `Walrus walrus walrus ${i}`, bodyText: "x", visibility: "publisher_only" });
    await addArticle({ slug: "walrus-public", title: "A walrus", bodyText: "One walrus." });
    const found = await search_articles.run({ query: "walrus", limit: 2 }, anonymous, env);
    expect(found.articles.map((a) => a.slug)).toEqual(["walrus-public"]);
  });

  it("keeps a query's articles in one language, any region of it, the tag as written in any case", async () => {
    await addArticle({ slug: "pilz-de", title: "Pilze im Wald", language: "de" });
    await addArticle({ slug: "pilz-at", title: "Pilze in Tirol", language: "de-AT" });
    await addArticle({ slug: "pilz-en", title: "Pilze, an English word now", language: "en" });
    const search = (input: object) => search_articles.run(v.parse(search_articles.input, input), anonymous, env);
    const de = await search({ query: "pilze", language: "DE" });
    expect(de.articles.map((a) => a.slug).sort()).toEqual(["pilz-at", "pilz-de"]);
    const at = await search({ query: "pilze", language: "de-at" });
    expect(at.articles.map((a) => a.slug)).toEqual(["pilz-at"]);
    expect(v.safeParse(search_articles.input, { query: "pilze", language: "not a tag" }).success).toBe(false);
  });

  it("without a query lists the public articles trending now", async () => {
    await addArticle({ slug: "old", vertical: "sports", createdAt: new Date(Date.now() - 48 * HOUR) });
    await addArticle({ slug: "new", vertical: "sports", summary: "Fresh." });
    await addArticle({ slug: "stub", vertical: "sports", visibility: "publisher_only" });
    const found = await search_articles.run({ vertical: "sports", limit: 20 }, anonymous, env);
    expect(found.query).toBeNull();
    expect(found.articles.map((a) => a.slug)).toEqual(["new", "old"]);
    expect(found.articles[0].snippet).toBe("Fresh.");
  });
});

describe("get_article", () => {
  it("returns the full record; a stub has no body text", async () => {
    await addArticle({ slug: "full", bodyText: "All of it.", summary: "Sum." });
    await addArticle({ slug: "stubbed", bodyText: "Withheld.", summary: "Hidden.", visibility: "publisher_only" });
    expect(await get_article.run({ slug: "full" }, anonymous, env)).toMatchObject({ slug: "full", body_text: "All of it.", summary: "Sum.", stub: false });
    expect(await get_article.run({ slug: "stubbed" }, anonymous, env)).toMatchObject({ body_text: null, summary: "", stub: true });
    await expect(get_article.run({ slug: "missing" }, anonymous, env)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("get_audio_url", () => {
  it("needs a payment or the articles:read scope", async () => {
    const a = await addArticle();
    await expect(invoke(get_audio_url, { slug: a.slug }, anonymous, env)).rejects.toMatchObject({ code: "payment_required" });
    const { listener } = await addListener();
    await expect(invoke(get_audio_url, { slug: a.slug }, actingFor(listener.id, { scopes: ["digest:run"] }), env)).rejects.toMatchObject({
      code: "payment_required",
    });
  });

  it("answers the existing audio at once, for a paying caller", async () => {
    const key = "b".repeat(64);
    const a = await addArticle({ audioKey: key, listenSeconds: 42 });
    await env.DB.prepare("insert into render_jobs (id, article_id, state, audio_key) values ('j1', ?, 'done', ?)").bind(a.id, key).run();
    await env.DB.prepare("insert into audio_objects (key, provider, voice, duration_seconds) values (?, 'offline', 'en-us', 41.6)").bind(key).run();
    const out = await invoke(get_audio_url, { slug: a.slug }, { ...anonymous, paid: true }, env);
    expect(out).toEqual({
      slug: a.slug,
      state: "ready",
      audio_url: `${env.BASE_URL}/v1/audio/${key}.mp3`,
      opus_url: `${env.BASE_URL}/v1/audio/${key}.opus`,
      listen_seconds: 42,
      cached: true,
      sponsored: false,
      job_id: "j1",
      poll_url: null,
      stream_url: null,
    });
  });

  it("starts one render and, past the wait, answers pending with the polling URL", async () => {
    const a = await addArticle({ slug: "unrendered" });
    const send = vi.spyOn(env.RENDER_QUEUE, "send");
    // Nothing consumes the render queue in this project: the job stays queued and the wait runs out.
    const noWait = { ...env, AGENT_AUDIO_WAIT_SECONDS: "0" } as Env;
    const first = await invoke(get_audio_url, { slug: a.slug }, { ...anonymous, paid: true }, noWait);
    expect(first).toMatchObject({
      state: "pending",
      audio_url: null,
      cached: false,
      poll_url: `${env.BASE_URL}/v1/articles/unrendered/audio`,
    });
    // It plays at once, as the render makes it (docs/narration.md "Listening while it renders").
    expect(first.stream_url).toBe(`${env.BASE_URL}/v1/jobs/${first.job_id}/stream.mp3`);
    const job = await env.DB.prepare("select * from render_jobs where id = ?").bind(first.job_id).first();
    expect(job).toMatchObject({ article_id: a.id, priority: "high", state: "queued" });
    // A second call waits on the same job instead of starting another.
    const again = await invoke(get_audio_url, { slug: a.slug, voice: undefined }, { ...anonymous, paid: true }, noWait);
    expect(again.job_id).toBe(first.job_id);
    expect(send).toHaveBeenCalledOnce();
  });

  it("renders another voice as a job of its own (REST voice)", async () => {
    const key = "c".repeat(64);
    const a = await addArticle({ audioKey: key });
    await env.DB.prepare("insert into render_jobs (id, article_id, state, audio_key) values ('j-default', ?, 'done', ?)").bind(a.id, key).run();
    const out = await get_audio_url.run({ slug: a.slug, voice: "en-gb" }, { ...anonymous, paid: true }, { ...env, AGENT_AUDIO_WAIT_SECONDS: "0" } as Env);
    expect(out.state).toBe("pending");
    expect(await env.DB.prepare("select voice from render_jobs where id = ?").bind(out.job_id).first()).toEqual({ voice: "en-gb" });
  });
});

describe("subscribe_topic and list_subscriptions", () => {
  it("need an acting listener, and say so", async () => {
    await expect(subscribe_topic.run({ verticals: ["tech"] }, { ...anonymous, paid: true }, env)).rejects.toMatchObject({
      code: "unauthorized",
      message: expect.stringMatching(/acts for a listener.*OAuth.*wallet/),
    });
    await expect(invoke(list_subscriptions, {}, anonymous, env)).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("set the listener's verticals, return the private feed URL and list what this agent minted", async () => {
    const { listener } = await addListener({ verticals: ["health"] });
    const caller = actingFor(listener.id);
    const out = await invoke(subscribe_topic, { verticals: ["science", "tech", "science"] }, caller, env);
    expect(out.verticals).toEqual(["science", "tech"]);
    const feedToken = feedTokenOf(out.feed_url);
    expect((await call(new URL(out.feed_url).pathname)).status).toBe(200);
    const row = await env.DB.prepare("select verticals from listeners where id = ?").bind(listener.id).first<{ verticals: string }>();
    expect(JSON.parse(row!.verticals)).toEqual(["science", "tech"]);

    const listed = await invoke(list_subscriptions, {}, caller, env);
    expect(listed.subscriptions).toEqual([
      { feed_url: out.feed_url, verticals: ["science", "tech"], created_at: expect.any(String), updated_at: expect.any(String) },
    ]);
    expect(feedTokenOf(listed.subscriptions[0].feed_url)).toBe(feedToken);
    // Another agent acting for the same listener minted nothing.
    expect((await invoke(list_subscriptions, {}, { ...caller, agentKey: "oauth:client-b" }, env)).subscriptions).toEqual([]);
  });
});

describe("digest", () => {
  it("ranks the window's articles of the verticals by plays against age", async () => {
    await addArticle({ slug: "quiet", vertical: "tech", createdAt: new Date(Date.now() - 2 * HOUR) });
    const hot = await addArticle({ slug: "hot", vertical: "tech", createdAt: new Date(Date.now() - 3 * HOUR) });
    await addArticle({ slug: "stale", vertical: "tech", createdAt: new Date(Date.now() - 3 * 24 * HOUR) });
    await addArticle({ slug: "elsewhere", vertical: "news" });
    await addPlays(hot.id, 10);
    const day = await digest.run({ verticals: ["tech"], window: "24h", limit: 5 }, anonymous, env);
    expect(day.articles.map((a) => a.slug)).toEqual(["hot", "quiet"]);
    expect(day.articles[0]).toMatchObject({ plays: 10, score: expect.any(Number) });
    const week = await digest.run({ window: "7d", limit: 5 }, anonymous, env);
    expect(week.articles.map((a) => a.slug)).toEqual(["hot", "quiet", "stale"]);
    expect((await digest.run({ window: "7d", limit: 1 }, anonymous, env)).articles).toHaveLength(1);
  });

  it("needs a payment or digest:run, and weighs more against the agent's budget", async () => {
    await expect(invoke(digest, { window: "24h", limit: 5 }, anonymous, env)).rejects.toMatchObject({ code: "payment_required" });
    const caller: Caller = { ...anonymous, agentKey: "ip:198.51.100.9", paid: true };
    // docs/agents/tools.md "Limits" of the agent surfaces: 60 units a minute per agent key, a digest five, "so digests are limited to 12 a minute".
    const allowed = 12;
    for (let i = 0; i < allowed; i++) await invoke(digest, { window: "24h", limit: 5 }, caller, env);
    await expect(invoke(digest, { window: "24h", limit: 5 }, caller, env)).rejects.toMatchObject({ code: "rate_limited" });
    // The budget is the agent's: another agent key is untouched.
    await expect(invoke(search_articles, { limit: 1 }, { ...caller, agentKey: "ip:198.51.100.10" }, env)).resolves.toBeDefined();
  });
});
