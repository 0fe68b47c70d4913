import { env } from "cloudflare:workers";
import type { PaymentRequired } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { call, jsonBody } from "../../test/support/client";
import { tokensFor } from "../../test/support/oauth-agent";
import { testVars } from "../../test/vars";
import { mcpClient } from "../../test/support/mcp-client";
import { recorded } from "../../test/support/x402";

/** The digest's price in docs/agents/payments.md "Prices" (USDC atomic units), written out so that a changed price fails here. */
const DIGEST_PRICE = 50_000;

/**
 * OAuth bearer tokens on the agent surfaces (docs/agents/tools.md "MCP details"): a real token from the authorization-code
 * flow (oauth4webapi) makes tools act for the listener who allowed it, and its scopes stand in for a
 * payment; a bad token is an HTTP 401 with the RFC 9728 challenge on both surfaces.
 */

const CHALLENGE = `Bearer resource_metadata="${testVars.BASE_URL}/.well-known/oauth-protected-resource"`;

/** An article with rendered audio, and a token of a listener on the plus plan (bare audio, no pre-roll render). */
async function setUp(email: string, scope: string) {
  const key = "d".repeat(64);
  const article = await addArticle({ audioKey: key, listenSeconds: 42 });
  await env.DB.prepare("insert into render_jobs (id, article_id, state, audio_key) values (?, ?, 'done', ?)").bind(`job-${article.id}`, article.id, key).run();
  await env.DB.prepare("insert into audio_objects (key, provider, voice, duration_seconds) values (?, 'offline', 'en-us', 41.6)").bind(key).run();
  const { tokens, listener } = await tokensFor(email, scope);
  await env.DB.prepare("update listeners set plan = 'plus' where email = ?").bind(listener.email).run();
  return { article, key, bearer: { Authorization: `Bearer ${tokens.access_token}` } };
}

describe("a token holding the tool's scope needs no payment", () => {
  it("gets get_audio_url with articles:read on REST and on MCP, and nothing is charged", async () => {
    const { article, key, bearer } = await setUp("ada@example.test", "articles:read");
    const res = await call(`/v1/agent/articles/${article.slug}/audio`, { headers: bearer });
    expect(res.status).toBe(200);
    expect(res.headers.get("PAYMENT-RESPONSE")).toBeNull();
    expect(await res.json()).toMatchObject({ state: "ready", audio_url: `${env.BASE_URL}/v1/audio/${key}.mp3`, sponsored: false });

    const client = await mcpClient({ headers: bearer });
    const result = await client.callTool({ name: "get_audio_url", arguments: { slug: article.slug } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ state: "ready", audio_url: `${env.BASE_URL}/v1/audio/${key}.mp3` });
    await client.close();
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });

  it("subscribes the token's listener with subscriptions:write and lists what this client set up", async () => {
    const { bearer } = await setUp("grace@example.test", "subscriptions:write");
    const res = await call("/v1/agent/subscriptions", jsonBody("POST", { verticals: ["finance"] }, bearer));
    expect(res.status).toBe(200);
    const { feed_url } = await res.json<{ feed_url: string }>();
    const listed = await call("/v1/agent/subscriptions", { headers: bearer });
    expect(await listed.json()).toMatchObject({ subscriptions: [{ feed_url, verticals: ["finance"] }] });
  });
});

describe("a token without the scope", () => {
  it("falls back to x402 for a paid tool (README: paid tool without scope needs payment)", async () => {
    const { bearer } = await setUp("alan@example.test", "articles:read");
    const res = await call("/v1/agent/digest", jsonBody("POST", {}, bearer));
    expect(res.status).toBe(402);
    expect((await res.json<PaymentRequired>()).accepts[0].amount).toBe(String(DIGEST_PRICE));
  });

  it("is 403 insufficient_scope for a tool acting for the listener on REST and MCP alike: the step-up challenge naming the scope", async () => {
    const { bearer } = await setUp("edsger@example.test", "articles:read");
    const stepUp = `Bearer error="insufficient_scope", scope="subscriptions:write", resource_metadata="${testVars.BASE_URL}/.well-known/oauth-protected-resource"`;
    for (const res of [
      await call("/v1/agent/subscriptions", { headers: bearer }),
      await call("/v1/agent/subscriptions", jsonBody("POST", { verticals: ["tech"] }, bearer)),
    ]) {
      expect(res.status).toBe(403);
      expect(res.headers.get("WWW-Authenticate")).toBe(stepUp);
    }
    // MCP authorization, "Scope Challenge Handling": an HTTP 403 before the tool runs, not a tool result.
    const toolsCall = (name: string, args: object) => ({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } });
    const headers = { ...bearer, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
    for (const [name, args] of [
      ["subscribe_topic", { verticals: ["tech"] }],
      ["list_subscriptions", {}],
    ] as const) {
      const res = await call("/mcp/v1", { method: "POST", headers, body: JSON.stringify(toolsCall(name, args)) });
      expect(res.status, name).toBe(403);
      const challenge = res.headers.get("WWW-Authenticate")!;
      for (const part of [
        'error="insufficient_scope"',
        'scope="subscriptions:write"',
        `resource_metadata="${testVars.BASE_URL}/.well-known/oauth-protected-resource"`,
      ]) {
        expect(challenge, name).toContain(part);
      }
    }
    // The SDK client meets the same challenge in either era, and nothing ran.
    for (const modern of [false, true]) {
      const client = await mcpClient({ headers: bearer, modern });
      await expect(client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] } })).rejects.toThrow(
        /insufficient scope.*subscriptions:write/i,
      );
      // Tools the token covers still run: the challenge is per tool.
      expect((await client.callTool({ name: "search_articles", arguments: { query: "anything" } })).isError).toBeFalsy();
      await client.close();
    }
    expect(await env.DB.prepare("select count(*) as n from agent_feeds").first<number>("n")).toBe(0);
  });
});

describe("what a token reads as the listener", () => {
  it("shows the listener's private article only to a token holding articles:read", async () => {
    const { tokens: reader, listener } = await tokensFor("barbara@example.test", "articles:read");
    const owner = await env.DB.prepare("select id from listeners where email = ?").bind(listener.email).first<number>("id");
    const secret = await addArticle({ visibility: "listener_private", ownerListenerId: owner });
    const read = await call(`/v1/agent/articles/${secret.slug}`, { headers: { Authorization: `Bearer ${reader.access_token}` } });
    expect(read.status).toBe(200);

    const { tokens: subscriber } = await tokensFor("barbara@example.test", "subscriptions:write");
    const refused = await call(`/v1/agent/articles/${secret.slug}`, { headers: { Authorization: `Bearer ${subscriber.access_token}` } });
    expect(refused.status).toBe(404);
    const client = await mcpClient({ headers: { Authorization: `Bearer ${subscriber.access_token}` } });
    expect((await client.callTool({ name: "get_article", arguments: { slug: secret.slug } })).isError).toBe(true);
    await client.close();
  });
});

describe("overlapping MCP calls", () => {
  it("each act for their own caller: one handler serves the isolate, one server per request", async () => {
    const { tokens, listener } = await tokensFor("ida@example.test", "articles:read");
    const owner = await env.DB.prepare("select id from listeners where email = ?").bind(listener.email).first<number>("id");
    const secret = await addArticle({ visibility: "listener_private", ownerListenerId: owner });
    const [reader, stranger] = await Promise.all([mcpClient({ headers: { Authorization: `Bearer ${tokens.access_token}` } }), mcpClient()]);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? stranger : reader).callTool({ name: "get_article", arguments: { slug: secret.slug } })),
    );
    expect(results.map((r) => r.isError === true)).toEqual([false, true, false, true, false, true]);
    expect(results[0].structuredContent).toMatchObject({ slug: secret.slug });
    await Promise.all([reader.close(), stranger.close()]);
  });
});

describe("an invalid token", () => {
  it("is an HTTP 401 with WWW-Authenticate naming the resource metadata, on REST and on /mcp/v1", async () => {
    const bad = { Authorization: "Bearer not-a-token" };
    const rest = await call("/v1/agent/articles?q=x", { headers: bad });
    expect(rest.status).toBe(401);
    expect(rest.headers.get("WWW-Authenticate")).toMatch(new RegExp(`^${CHALLENGE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));

    const mcp = await call("/mcp/v1", {
      method: "POST",
      headers: { ...bad, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("WWW-Authenticate")).toBe(rest.headers.get("WWW-Authenticate"));
    await expect(mcpClient({ headers: bad })).rejects.toThrow();
  });
});
