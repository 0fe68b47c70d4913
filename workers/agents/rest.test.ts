import { describe, expect, it } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { tokensFor } from "../../test/support/oauth-agent";

/** The REST operation of each tool (docs/agents/tools.md "Agents"): same validation (422) as every endpoint. */

describe("GET /v1/agent/articles (search_articles)", () => {
  it("searches with q, vertical and limit, for a bearer token holding articles:read", async () => {
    const { tokens } = await tokensFor("searcher@example.com", "articles:read");
    await addArticle({ slug: "otter", title: "Otters return", bodyText: "Sea otters.", vertical: "science" });
    const res = await call("/v1/agent/articles?q=otters&vertical=science&limit=5", { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(res.status).toBe(200);
    const body = await res.json<{ query: string; articles: { slug: string }[] }>();
    expect(body.query).toBe("otters");
    expect(body.articles.map((a) => a.slug)).toEqual(["otter"]);
  });

  it("answers 401 with the resource-metadata challenge without a token, 403 naming the scope without articles:read", async () => {
    await addArticle({ slug: "otter", title: "Otters return", bodyText: "Sea otters.", vertical: "science" });
    const anonymous = await call("/v1/agent/articles?q=otters");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("WWW-Authenticate")).toBe('Bearer resource_metadata="https://api.test/.well-known/oauth-protected-resource"');
    const { tokens } = await tokensFor("digester@example.com", "digest:run");
    const narrow = await call("/v1/agent/articles?q=otters", { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope", scope="articles:read"');
  });

  it("narrows to language without q too: the trending articles narrated in it", async () => {
    const { tokens } = await tokensFor("linguist@example.com", "articles:read");
    await addArticle({ slug: "fahre", title: "Die Fähre fährt wieder", bodyText: "Die Fähre fährt.", language: "de" });
    await addArticle({ slug: "ferry", title: "The ferry runs again", bodyText: "The ferry runs.", language: "en" });
    const list = async (query: string) => {
      const res = await call(`/v1/agent/articles${query}`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
      expect(res.status).toBe(200);
      return (await res.json<{ query: string | null; articles: { slug: string }[] }>()).articles.map((a) => a.slug).sort();
    };
    expect(await list("?language=de")).toEqual(["fahre"]);
    expect(await list("?language=en")).toEqual(["ferry"]);
    expect(await list("")).toEqual(["fahre", "ferry"]);
  });

  it("answers 422 naming each bad parameter", async () => {
    const res = await call("/v1/agent/articles?q=x&limit=0&vertical=gardening");
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: string[] }[] }>();
    expect(detail.map((d) => d.loc)).toEqual(
      expect.arrayContaining([
        ["query", "limit"],
        ["query", "vertical"],
      ]),
    );
  });
});

describe("GET /v1/agent/articles/{slug} (get_article)", () => {
  it("returns the record, and 404 for an unknown slug", async () => {
    await addArticle({ slug: "heron", bodyText: "Herons wade." });
    expect(await (await call("/v1/agent/articles/heron")).json()).toMatchObject({ slug: "heron", body_text: "Herons wade." });
    const missing = await call("/v1/agent/articles/nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "not_found" });
  });
});

describe("GET /v1/agent/articles/{slug}/audio (get_audio_url)", () => {
  it("answers 402 without payment or token, and 422 for a malformed voice", async () => {
    await addArticle({ slug: "lark" });
    const res = await call("/v1/agent/articles/lark/audio?voice=en-GB-female");
    expect(res.status).toBe(402);
    expect(res.headers.get("PAYMENT-REQUIRED")).toBeTruthy();
    expect(await res.json()).toMatchObject({ x402Version: 2, accepts: [{ scheme: "exact" }] });
    const bad = await call("/v1/agent/articles/lark/audio?voice=no%20spaces");
    expect(bad.status).toBe(422);
    expect((await bad.json<{ detail: { loc: string[] }[] }>()).detail[0].loc).toEqual(["query", "voice"]);
  });
});

describe("subscriptions and digest", () => {
  it("POST /v1/agent/subscriptions: 422 on bad verticals, else 402 until a payment or token", async () => {
    const bad = await call("/v1/agent/subscriptions", jsonBody("POST", { verticals: ["weather"] }));
    expect(bad.status).toBe(422);
    expect((await bad.json<{ detail: { loc: (string | number)[] }[] }>()).detail[0].loc).toEqual(["body", "verticals", 0]);
    expect((await call("/v1/agent/subscriptions", jsonBody("POST", { verticals: ["tech"] }))).status).toBe(402);
  });

  it("GET /v1/agent/subscriptions: without a token, 402 with the Sign-In-With-X challenge (no payment option)", async () => {
    const res = await call("/v1/agent/subscriptions");
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ x402Version: 2, accepts: [], extensions: { "sign-in-with-x": expect.any(Object) } });
  });

  it("POST /v1/agent/digest: 422 on a bad window or limit, else 402", async () => {
    const bad = await call("/v1/agent/digest", jsonBody("POST", { window: "1y", limit: 50 }));
    expect(bad.status).toBe(422);
    const locs = (await bad.json<{ detail: { loc: string[] }[] }>()).detail.map((d) => d.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ["body", "window"],
        ["body", "limit"],
      ]),
    );
    expect((await call("/v1/agent/digest", jsonBody("POST", {}))).status).toBe(402);
  });
});

describe("rate limits (docs/rules.md 8)", () => {
  it("allow 60 tool calls a minute per agent, then 429 with Retry-After", async () => {
    const limit = 60; // docs/agents/tools.md "Limits" of the agent surfaces: 60 units a minute per agent key
    await addArticle({ slug: "heron", bodyText: "Herons wade." });
    const read = (ip: string) => call("/v1/agent/articles/heron", { ip });
    for (let i = 0; i < limit; i++) expect((await read("198.51.100.50")).status).toBe(200);
    const over = await read("198.51.100.50");
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await read("198.51.100.51")).status).toBe(200);
  });
});

describe("/openapi.json", () => {
  it("names each agent operation after its tool, and the REST-only add_link", async () => {
    const doc = await (await call("/openapi.json")).json<{ paths: Record<string, Record<string, { operationId: string }>> }>();
    const ids = Object.fromEntries(
      Object.entries(doc.paths)
        .filter(([path]) => path.startsWith("/v1/agent/"))
        .flatMap(([path, ops]) => Object.entries(ops).map(([m, op]) => [`${m.toUpperCase()} ${path}`, op.operationId])),
    );
    expect(ids).toEqual({
      "GET /v1/agent/articles": "search_articles",
      "GET /v1/agent/articles/{slug}": "get_article",
      "GET /v1/agent/articles/{slug}/audio": "get_audio_url",
      "POST /v1/agent/subscriptions": "subscribe_topic",
      "GET /v1/agent/subscriptions": "list_subscriptions",
      "POST /v1/agent/digest": "digest",
      "POST /v1/agent/links": "add_link",
    });
  });
});
