import { env } from "cloudflare:workers";
import * as v from "valibot";
import { beforeEach, describe, expect, it } from "vitest";
import { TOOLS } from "../workers/agents/tools";
import { BLOCK_IDS } from "../workers/listeners/flo";
import type { Caller } from "../workers/agents/caller";
import { issuePublisherKey } from "../workers/kernel/publisher-keys";
import { addArticle, addListener } from "./support/articles";
import { apiKeyHeaders, call, jsonBody } from "./support/client";
import { feedListener, readyArticle } from "./support/feeds";
import { feedTokenOf } from "./support/listeners";
import { mcpClient } from "./support/mcp-client";
import { tokensFor } from "./support/oauth-agent";
import { privateArticleOf } from "./support/private-article";

/**
 * Issue 29, item 3: a publisher_only stub is paywalled content. Its text and narration reach only its
 * publisher (its API key) and the operator (SERVICE_API_KEY); every request below is one an attacker
 * without those keys would send, through the real routes, and none may hand over the audio key, the
 * body or the audio (kernel/visibility.ts, narration/audio-access.ts).
 */

const PUBLISHER = "Paywall Press";
const SECRET = "wombatledger";
let stub: Awaited<ReturnType<typeof readyArticle>>;
let key: string;

beforeEach(async () => {
  stub = await readyArticle({
    title: `The ${SECRET} exposé`,
    publisher: PUBLISHER,
    vertical: "tech",
    visibility: "publisher_only",
    summary: `Teaser of the ${SECRET}.`,
    bodyText: `Only subscribers read the ${SECRET} body.`,
  });
  key = stub.audioKey!;
  await env.DB.prepare("insert into render_jobs (id, article_id, state, audio_key) values ('stub-job', ?, 'done', ?)").bind(stub.id, key).run();
});

/** Nothing of the narration or the text: neither the key (in any URL) nor the body. */
function expectNoNarration(text: string, where: string) {
  expect(text, where).not.toContain(key);
  expect(text, where).not.toContain(`${SECRET} body`);
}

describe("a publisher_only stub's narration and text stay with its publisher", () => {
  it("anonymous reads of the record, search and the stories feed carry no audio_url", async () => {
    const record = await call(`/v1/articles/${stub.slug}`);
    expect(record.status).toBe(200);
    const body = await record.json<Record<string, unknown>>();
    expect(body).toMatchObject({ stub: true, audio_ready: true, audio_url: null, body_text: null, summary: "" });
    expectNoNarration(JSON.stringify(body), "record");
    for (const path of [
      `/v1/stories/search?q=${SECRET}&expand=false`,
      "/v1/stories/feed",
      "/v1/stories/feed?vertical=tech",
      // A page size of its own: the isolate's trending cache outlives the storage reset between tests.
      "/v1/stories/feed?vertical=trending&limit=97",
      "/v1/stories/feed?audio_ready_only=false",
    ]) {
      const res = await call(path, { ip: "198.51.100.30" });
      expect(res.status, path).toBe(200);
      const text = await res.text();
      // The stub is listed (a thin stub is a teaser), but without its audio.
      expect(text, path).toContain(stub.slug);
      expectNoNarration(text, path);
    }
  });

  it("a listener's own listings, private feed and transcript path carry none of it", async () => {
    const { feedToken, accountToken } = await feedListener(["tech"]);
    for (const path of [
      `/v1/articles/${stub.slug}?listener_token=${accountToken}`,
      `/v1/stories/feed?listener_token=${accountToken}`,
      `/v1/listeners/${accountToken}/feed`,
      `/v1/listeners/${accountToken}/queue`,
      `/v1/listener/${accountToken}/flo/now`,
      `/v1/podcasts/u/${feedToken}.xml`,
    ]) {
      const res = await call(path, { ip: "198.51.100.31" });
      expect(res.status, path).toBe(200);
      expectNoNarration(await res.text(), path);
    }
    const transcript = await call(`/v1/podcasts/u/${feedToken}/transcripts/${stub.slug}.vtt`);
    expect(transcript.status).toBe(404);
    expectNoNarration(await transcript.text(), "private transcript");
    expect((await call(`/v1/podcasts/transcripts/${stub.slug}.vtt`)).status).toBe(404);
  });

  it("a listener's listings never say ready a narration they may not hear (issue 40 item 11)", async () => {
    const { accountToken } = await feedListener(["tech"]);
    type Item = { slug: string; audio_ready?: boolean; audio_url: string | null; status?: string };
    const itemOf = async (path: string, list: (body: never) => Item[]) => {
      const res = await call(path, { ip: "198.51.100.32" });
      expect(res.status, path).toBe(200);
      const item = list(await res.json<never>()).find((i) => i.slug === stub.slug);
      expect(item, path).toBeDefined();
      return item!;
    };
    // flo/now lists the block of the hour: every block reads tech, so the test does not depend on the clock.
    const everyBlock = BLOCK_IDS.map((id) => ({ id, verticals: ["tech"] }));
    expect((await call(`/v1/listener/${accountToken}/flo`, jsonBody("PUT", { blocks: everyBlock }))).status).toBe(200);
    const feed = await itemOf(`/v1/listeners/${accountToken}/feed`, (b: { items: Item[] }) => b.items);
    expect(feed).toMatchObject({ audio_ready: false, audio_url: null });
    const now = await itemOf(`/v1/listener/${accountToken}/flo/now`, (b: { items: Item[] }) => b.items);
    expect(now).toMatchObject({ audio_ready: false, audio_url: null });
    const queued = await itemOf(`/v1/listeners/${accountToken}/queue`, (b: { items: Item[] }) => b.items);
    expect(queued.audio_url).toBeNull();
    expect(queued.status).not.toBe("done");
  });

  it("the polling path and render-now refuse it as if it did not exist, and render nothing", async () => {
    const { token, listener } = await addListener({ verticals: ["tech"] });
    for (const path of [`/v1/articles/${stub.slug}/audio`, `/v1/articles/${stub.slug}/audio?listener_token=${token}`]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      expectNoNarration(await res.text(), path);
    }
    // A stub without audio yet: render-now must not start a render of it either.
    await env.DB.prepare("update articles set audio_key = null where id = ?").bind(stub.id).run();
    await env.DB.prepare("delete from render_jobs").run();
    const rendered = await call(`/v1/articles/${stub.slug}/render-now`, jsonBody("POST", { listener_token: token }));
    expect(rendered.status).toBe(404);
    expect(await env.DB.prepare("select count(*) as n from render_jobs").first("n")).toBe(0);
    expect(await env.RENDER_GATE.getByName(String(listener.id)).inFlight()).toBe(0);
  });

  it("get_audio_url refuses it over REST and MCP, with a token holding articles:read, and no tool shows it", async () => {
    const { tokens } = await tokensFor("reader@example.test", "articles:read");
    const listenerId = (await env.DB.prepare("select id from listeners where email = 'reader@example.test'").first<number>("id"))!;
    const bearer = { Authorization: `Bearer ${tokens.access_token}` };
    const rest = await call(`/v1/agent/articles/${stub.slug}/audio`, { headers: bearer });
    expect(rest.status).toBe(404);
    expectNoNarration(await rest.text(), "REST get_audio_url");
    const client = await mcpClient({ headers: bearer });
    const result = await client.callTool({ name: "get_audio_url", arguments: { slug: stub.slug } });
    expect(result.isError).toBe(true);
    expectNoNarration(JSON.stringify(result), "MCP get_audio_url");
    await client.close();
    expect(await env.DB.prepare("select count(*) as n from render_jobs").first("n")).toBe(1);

    // Every tool, as a paying caller acting for a listener holding every scope: nothing of the stub.
    const caller: Caller = { agentKey: "oauth:any", listenerId, scopes: ["articles:read", "subscriptions:write", "digest:run"], paid: true, requestId: null };
    const inputs: Record<string, Record<string, unknown>> = {
      search_articles: { query: SECRET, limit: 100 },
      get_article: { slug: stub.slug },
      get_audio_url: { slug: stub.slug },
      digest: { verticals: ["tech"], window: "30d", limit: 20 },
    };
    for (const tool of TOOLS.filter((t) => t.name in inputs)) {
      const input = v.parse(tool.input, inputs[tool.name]);
      const answer = await tool.run(input as never, caller, env).then(
        (out) => JSON.stringify(out),
        (err: Error) => err.message,
      );
      expectNoNarration(answer, tool.name);
    }
  });

  it("GET /v1/audio/{key} refuses a key that narrates only stubs to anyone but its publisher and the operator", async () => {
    const { key: ownKey } = await issuePublisherKey(env, PUBLISHER);
    const { key: otherKey } = await issuePublisherKey(env, "Other Press");
    for (const path of [`/v1/audio/${key}.mp3`, `/v1/audio/${key}.opus`, `/v1/audio/${key}.wav`]) {
      for (const headers of [{}, { Authorization: `Bearer ${otherKey}` }, { "x-service-key": "wrong" }] as Record<string, string>[]) {
        expect((await call(path, { headers })).status, `${path} ${JSON.stringify(headers)}`).toBe(404);
        expect((await call(path, { method: "HEAD", headers })).status, `HEAD ${path}`).toBe(404);
      }
    }
    for (const headers of [{ Authorization: `Bearer ${ownKey}` }, apiKeyHeaders] as Record<string, string>[]) {
      const res = await call(`/v1/audio/${key}.mp3`, { headers });
      expect(res.status).toBe(200);
      // Nothing shared may keep it: the next anonymous request is refused again.
      expect(res.headers.get("cache-control")).toMatch(/^private/);
      await res.arrayBuffer();
      expect((await call(`/v1/audio/${key}.mp3`)).status).toBe(404);
    }
    // The same audio narrating a public article too is public: anyone can derive it from that article.
    await addArticle({ title: "A public twin", audioKey: key });
    expect((await call(`/v1/audio/${key}.mp3`)).status).toBe(200);
  });

  it("the publisher reaches its stub's narration through its API key", async () => {
    const { key: ownKey } = await issuePublisherKey(env, PUBLISHER);
    const job = await call("/v1/jobs/stub-job", { headers: { Authorization: `Bearer ${ownKey}` } });
    expect(job.status).toBe(200);
    expect(await job.json()).toMatchObject({ audio_key: key });
  });
});

describe("a listener_private article's transcript", () => {
  it("is 404 on another listener's private feed path", async () => {
    const privateKey = "f".repeat(64);
    const { owner, other, slug } = await privateArticleOf("numbatprivate", privateKey);
    await env.DB.prepare("insert into audio_objects (key, provider, voice, duration_seconds) values (?, 'offline', 'v', 3)").bind(privateKey).run();
    const feedOf = async (token: string) => feedTokenOf((await (await call(`/v1/listeners/${token}/private-feed`)).json<{ feed_url: string }>()).feed_url);
    const [ownerFeed, otherFeed] = [await feedOf(owner.token), await feedOf(other.token)];
    const stolen = await call(`/v1/podcasts/u/${otherFeed}/transcripts/${slug}.vtt`);
    expect(stolen.status).toBe(404);
    // The 404 may echo the slug asked for; the text is what must not come back.
    expect(await stolen.text()).not.toContain("All about numbatprivate");
    expect((await call(`/v1/podcasts/u/${ownerFeed}/transcripts/${slug}.vtt`)).status).toBe(200);
  });
});
