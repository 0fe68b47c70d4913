import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { mcpClient } from "../../test/support/mcp-client";
import { tokensFor } from "../../test/support/oauth-agent";
import { testVars } from "../../test/vars";
import worker from "../api";
import { RENDERS_PER_HOUR_PER_ADDRESS } from "../core/rate-limit";

/**
 * Issue 40 item 7, as the attack: an agent holding a listener's articles:read token asks get_audio_url
 * for article after article, in voices that cost money, to have the operator render them for nothing.
 * What must not happen: more renders than render-now would start for that listener (MAX_IN_FLIGHT 3 in
 * the tests), or a paid voice for a listener on the free plan.
 */

const api = (path: string, headers: Record<string, string>, ip = "198.51.100.77") =>
  worker.fetch(
    new Request(new URL(path, testVars.BASE_URL), { headers: { ...headers, "cf-connecting-ip": ip } }),
    { ...env, AGENT_AUDIO_WAIT_SECONDS: "0" } as Env,
    createExecutionContext(),
  );

const jobs = () =>
  env.DB.prepare("SELECT article_id, listener_id, voice FROM render_jobs ORDER BY created_at").all<{ article_id: number; listener_id: number | null }>();

describe("get_audio_url with a token spends the listener's render budget, as render-now does", () => {
  it("starts no more renders than the listener's in-flight cap, and no paid voice on the free plan", async () => {
    const { tokens } = await tokensFor("eve@example.test", "articles:read");
    const listener = (await env.DB.prepare("SELECT id FROM listeners WHERE email = 'eve@example.test'").first<{ id: number }>())!;
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const articles = await Promise.all([1, 2, 3, 4, 5].map((i) => addArticle({ slug: `story-${i}`, bodyText: `Story number ${i}.` })));

    for (const article of articles.slice(0, 3)) {
      const res = await api(`/v1/agent/articles/${article.slug}/audio`, bearer);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ state: "pending" });
    }
    const refused = await api(`/v1/agent/articles/${articles[3].slug}/audio`, bearer);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);

    const paidVoice = await api(`/v1/agent/articles/${articles[4].slug}/audio?voice=nova`, bearer);
    expect(paidVoice.status).toBe(403);

    const { results } = await jobs();
    expect(results).toHaveLength(3);
    expect(results.map((j) => j.listener_id)).toEqual([listener.id, listener.id, listener.id]);
  });
});

describe("get_audio_url with tokens spends the address's hourly render budget, as render-now does", () => {
  // The attack: one address holds many listeners' tokens (each listener a free account) and spreads its
  // renders over them, so that no listener's cap or daily budget is ever reached.
  it("past the hour's renders one address is refused, over REST and over MCP, and nothing more is queued", async () => {
    const ip = "198.51.100.78";
    const tokens = [];
    for (let i = 0; tokens.length * 3 < RENDERS_PER_HOUR_PER_ADDRESS + 3; i++) tokens.push((await tokensFor(`many-${i}@example.test`, "articles:read")).tokens);
    const articles = await Promise.all(
      Array.from({ length: tokens.length * 3 }, (_, i) => addArticle({ slug: `hourly-${i}`, bodyText: `Hourly story ${i}.` })),
    );

    let started = 0;
    for (const [i, article] of articles.slice(0, RENDERS_PER_HOUR_PER_ADDRESS).entries()) {
      const res = await api(`/v1/agent/articles/${article.slug}/audio`, { authorization: `Bearer ${tokens[Math.floor(i / 3)].access_token}` }, ip);
      expect(res.status).toBe(200);
      started += 1;
    }
    expect((await jobs()).results).toHaveLength(started);

    // A token whose listener has rendered nothing yet: its own budgets are whole, the address's hour is spent.
    const fresh = tokens[tokens.length - 1].access_token;
    const refused = await api(`/v1/agent/articles/${articles[RENDERS_PER_HOUR_PER_ADDRESS].slug}/audio`, { authorization: `Bearer ${fresh}` }, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);

    const client = await mcpClient({ ip, headers: { authorization: `Bearer ${fresh}` } });
    const viaMcp = await client.callTool({ name: "get_audio_url", arguments: { slug: articles[RENDERS_PER_HOUR_PER_ADDRESS + 1].slug } });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.structuredContent).toMatchObject({ code: "rate_limited" });
    await client.close();

    expect((await jobs()).results).toHaveLength(RENDERS_PER_HOUR_PER_ADDRESS);
    // Another address with the same token still renders: the budget is the address's, not the token's.
    expect(
      (await api(`/v1/agent/articles/${articles[RENDERS_PER_HOUR_PER_ADDRESS + 2].slug}/audio`, { authorization: `Bearer ${fresh}` }, "198.51.100.79")).status,
    ).toBe(200);
  });
});
