import { env } from "cloudflare:test";
import type { PaymentRequired } from "@x402/core/types";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call } from "./support/client";
import { feedListener, forgetEdgeCache, mp3Bytes, PUBLIC_FEED_PATHS, readyArticle } from "./support/feeds";
import { mcpClient } from "./support/mcp-client";
import { tokensFor } from "./support/oauth-agent";
import { finishJob } from "./support/render-store";
import { walletAgent } from "./support/x402";
import { testVars } from "./vars";
import { MCP_PAYMENT_META } from "../workers/agents/x402/mcp-transport";
import { sha256Hex } from "../workers/core/crypto";
import { audioObjects, database, publisherSettings, renderJobs } from "../workers/db/index";
import { audioObjectPath } from "../workers/kernel/audio-objects";
import { issuePublisherKey } from "../workers/kernel/publisher-keys";

/**
 * Review before release, surface by surface (issue 43 item 3, docs/publishers.md "Review before
 * release"): a publisher with review on re-renders a released article; the new narration waits, and
 * every surface that hands out audio (feeds, pages, the embedded player, search, the sitemap, MCP, the
 * agents' REST operations, paid with x402) still gives the released audio and never the waiting one,
 * which only the publisher's own key fetches. Each surface is shown to carry the released audio, so
 * it is one that would carry the waiting one if the gate let it through.
 */

const PUBLISHER = "Harbour Gazette";
const WEB = new URL(testVars.WEB_URL);

/** A released narration (audio `released`) of a science article, and a re-render of it waiting for review (audio `waiting`). */
async function waitingReRender() {
  const article = await readyArticle({
    publisher: PUBLISHER,
    vertical: "science",
    title: "Tide tables of the harbour",
    bodyText: "Harbour master Nguyen prints a tide table every winter.",
  });
  const released = article.audioKey!;
  await database(env)
    .insert(renderJobs)
    .values({ id: `job-released-${article.id}`, articleId: article.id, state: "done", audioKey: released });
  await database(env).insert(publisherSettings).values({ publisher: PUBLISHER, reviewBeforeRelease: true });
  const waiting = await sha256Hex(`re-render-of-${article.slug}`);
  const bytes = mp3Bytes(4096, 7);
  await env.AUDIO.put(audioObjectPath(waiting, "mp3"), bytes, { httpMetadata: { contentType: "audio/mpeg" } });
  await database(env).insert(audioObjects).values({ key: waiting, provider: "offline", voice: "en-US-female", durationSeconds: 42, mp3Bytes: bytes.length });
  await database(env)
    .insert(renderJobs)
    .values({ id: `job-waiting-${article.id}`, articleId: article.id });
  await finishJob(`job-waiting-${article.id}`, { key: waiting, duration_seconds: 42 });
  const job = await database(env).query.renderJobs.findFirst({ where: eq(renderJobs.id, `job-waiting-${article.id}`) });
  expect(job?.state).toBe("awaiting_review");
  return { article, released, waiting };
}

describe("a narration awaiting review reaches no surface", () => {
  it("feeds, pages, the embed, search and the sitemap give the released audio, never the waiting one", async () => {
    const { article, released, waiting } = await waitingReRender();
    await forgetEdgeCache(PUBLIC_FEED_PATHS);
    const { feedToken } = await feedListener(["science"]);
    const surfaces: Record<string, string> = {
      "service.xml": "/v1/podcasts/service.xml",
      "topic feed": "/v1/podcasts/service-science.xml",
      "private feed": `/v1/podcasts/u/${feedToken}.xml`,
      record: `/v1/articles/${article.slug}`,
      "article audio": `/v1/articles/${article.slug}/audio`,
      "article page": `${WEB.origin}/articles/${article.slug}`,
      embed: `${WEB.origin}/embed/article/${article.slug}`,
      search: "/v1/stories/search?q=tide&expand=false",
    };
    for (const [surface, path] of Object.entries(surfaces)) {
      const res = await call(path);
      expect(res.status, surface).toBe(200);
      const text = await res.text();
      expect(text, surface).toContain(released);
      expect(text, surface).not.toContain(waiting);
    }
    // The sitemap lists pages, not audio: the article's page is there, the waiting audio nowhere.
    const sitemap = await (await call(`${WEB.origin}/sitemap.xml`)).text();
    expect(sitemap).toContain(`/articles/${article.slug}`);
    expect(sitemap).not.toContain(waiting);
    // The audio path: the waiting file to the publisher's key only.
    expect((await call(`/v1/audio/${waiting}.mp3`)).status).toBe(404);
    expect((await call(`/v1/audio/${released}.mp3`)).status).toBe(200);
    const key = { Authorization: `Bearer ${(await issuePublisherKey(env, PUBLISHER)).key}` };
    expect((await call(`/v1/audio/${waiting}.mp3`, { headers: key })).status).toBe(200);
  });

  it("the agents' REST operations (an OAuth token's search and record; get_audio_url paid with x402) give the released audio only", async () => {
    const { article, released, waiting } = await waitingReRender();
    const { tokens } = await tokensFor("agent-reader@example.com", "articles:read");
    for (const path of [`/v1/agent/articles?q=tide`, `/v1/agent/articles/${article.slug}`]) {
      const res = await call(path, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
      expect(res.status, path).toBe(200);
      const text = await res.text();
      expect(text, path).toContain(released);
      expect(text, path).not.toContain(waiting);
    }
    const { http } = walletAgent();
    const path = `/v1/agent/articles/${article.slug}/audio`;
    const unpaid = await call(path);
    expect(unpaid.status).toBe(402);
    const required = http.getPaymentRequiredResponse((name) => unpaid.headers.get(name), await unpaid.json());
    const paid = await call(path, { headers: http.encodePaymentSignatureHeader(await http.createPaymentPayload(required)) });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ state: "ready", audio_url: `${env.BASE_URL}/v1/audio/${released}.mp3` });
  });

  it("MCP's search_articles, get_article and get_audio_url (paid with x402) give the released audio only", async () => {
    const { article, released, waiting } = await waitingReRender();
    const client = await mcpClient();
    for (const [name, args] of [
      ["search_articles", { query: "tide" }],
      ["get_article", { slug: article.slug }],
    ] as const) {
      const text = JSON.stringify(await client.callTool({ name, arguments: args }));
      expect(text, name).toContain(released);
      expect(text, name).not.toContain(waiting);
    }
    const { http } = walletAgent();
    const unpaid = await client.callTool({ name: "get_audio_url", arguments: { slug: article.slug } });
    expect(unpaid.isError).toBe(true);
    const payload = await http.createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);
    const paid = await client.callTool({ name: "get_audio_url", arguments: { slug: article.slug }, _meta: { [MCP_PAYMENT_META]: payload } });
    expect(paid.isError).toBeFalsy();
    expect(JSON.stringify(paid)).not.toContain(waiting);
    expect(paid.structuredContent).toMatchObject({ state: "ready", audio_url: `${env.BASE_URL}/v1/audio/${released}.mp3` });
    await client.close();
  });
});
