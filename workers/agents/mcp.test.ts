import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { addArticle } from "../../test/support/articles";
import { mcpClient } from "../../test/support/mcp-client";

/** MCP over Streamable HTTP (revision 2025-11-25 "Transports", and the 2026-07-28 per-request era) through the official SDK client. */

const NAMES = ["search_articles", "get_article", "get_audio_url", "subscribe_topic", "list_subscriptions", "digest"];

describe.each([
  ["2025-11-25 (initialize)", false],
  ["2026-07-28 (per request)", true],
])("/mcp/v1 at %s", (_era, modern) => {
  it("initializes and lists exactly the six tools, each with input and output schemas and annotations", async () => {
    const client = await mcpClient({ modern });
    expect(client.getServerVersion()?.name).toBe("narration");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...NAMES].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.annotations, tool.name).toBeDefined();
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    // docs/rules.md 4: voice exists on REST only.
    expect(Object.keys(byName.get_audio_url.inputSchema.properties ?? {})).toEqual(["slug"]);
    expect(byName.search_articles.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.subscribe_topic.annotations?.readOnlyHint).toBe(false);
    // Every argument carries a description for the model.
    for (const tool of tools) {
      for (const [name, prop] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((prop as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
    await client.close();
  });

  it("calls search_articles and get_article with structured content and a text rendering", async () => {
    // A word of its own per era: search answers are cached in the isolate across tests.
    const word = modern ? "quasar" : "pulsar";
    const article = await addArticle({ title: `The ${word} bursts decoded`, bodyText: `Astronomers decoded ${word} bursts.`, vertical: "science" });
    const client = await mcpClient({ modern });
    const found = await client.callTool({ name: "search_articles", arguments: { query: word, vertical: "science" } });
    expect(found.isError).toBeFalsy();
    const structured = found.structuredContent as { articles: { slug: string }[] };
    expect(structured.articles.map((a) => a.slug)).toEqual([article.slug]);
    expect(JSON.parse((found.content as { text: string }[])[0].text)).toEqual(structured);

    const record = await client.callTool({ name: "get_article", arguments: { slug: article.slug } });
    expect(record.isError).toBeFalsy();
    expect(record.structuredContent).toMatchObject({ slug: article.slug, body_text: `Astronomers decoded ${word} bursts.` });
    await client.close();
  });

  it("search_articles without a query lists the trending articles of the language asked for only", async () => {
    const german = await addArticle({ title: "Die Fähre fährt wieder", bodyText: "Die Fähre fährt.", language: "de" });
    const austrian = await addArticle({ title: "Die Bim fährt wieder", bodyText: "Die Bim fährt.", language: "de-AT" });
    const english = await addArticle({ title: "The ferry runs again", bodyText: "The ferry runs.", language: "en" });
    const client = await mcpClient({ modern });
    const slugs = async (args: Record<string, unknown>) =>
      ((await client.callTool({ name: "search_articles", arguments: args })).structuredContent as { articles: { slug: string }[] }).articles
        .map((a) => a.slug)
        .sort();
    expect(await slugs({ language: "de" })).toEqual([german.slug, austrian.slug].sort());
    expect(await slugs({ language: "en" })).toEqual([english.slug]);
    expect(await slugs({})).toEqual([german.slug, austrian.slug, english.slug].sort());
    await client.close();
  });

  it("answers a call of a tool it does not have as the SDK does, naming the tool", async () => {
    const client = await mcpClient({ modern });
    const outcome = await client.callTool({ name: "get_weather", arguments: {} }).then(
      (result) => JSON.stringify(result),
      (err: Error) => err.message,
    );
    expect(outcome).toContain("get_weather");
    expect(outcome).toMatch(/not found/i);
    await client.close();
  });

  it("answers bad arguments with a tool error naming the argument", async () => {
    const client = await mcpClient({ modern });
    const cases: [string, Record<string, unknown>, string][] = [
      ["search_articles", { query: "x", limit: 500 }, "limit"],
      ["search_articles", { vertical: "gardening" }, "vertical"],
      ["get_article", {}, "slug"],
      ["get_audio_url", { slug: "" }, "slug"],
      ["subscribe_topic", { verticals: ["weather"] }, "verticals"],
      ["digest", { window: "1y" }, "window"],
      ["digest", { limit: 21 }, "limit"],
    ];
    for (const [name, args, argument] of cases) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect((result.content as { text: string }[])[0].text, name).toContain(argument);
    }
    await client.close();
  });

  it("answers paid tools without payment with the x402 PaymentRequired, and list_subscriptions with the Sign-In-With-X challenge", async () => {
    const article = await addArticle({ audioKey: "k", listenSeconds: 30 });
    const client = await mcpClient({ modern });
    const calls: [string, Record<string, unknown>][] = [
      ["get_audio_url", { slug: article.slug }],
      ["digest", {}],
      ["subscribe_topic", { verticals: ["tech"] }],
    ];
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      // A tool result, not a JSON-RPC error: the PaymentRequired in structuredContent and as JSON text (docs/agents/tools.md "MCP details").
      expect(result.structuredContent, name).toMatchObject({ x402Version: 2, resource: { url: `mcp://tool/${name}` }, accepts: [{ scheme: "exact" }] });
      expect(JSON.parse((result.content as { text: string }[])[0].text), name).toEqual(result.structuredContent);
    }
    const list = await client.callTool({ name: "list_subscriptions", arguments: {} });
    expect(list.isError).toBe(true);
    expect(list.structuredContent).toMatchObject({ x402Version: 2, accepts: [], extensions: { "sign-in-with-x": expect.any(Object) } });
    await client.close();
  });
});

describe("/mcp/v1 transport rules", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
  const post = (headers: Record<string, string>) =>
    call("/mcp/v1", {
      method: "POST",
      body: JSON.stringify(initialize),
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    });

  it("refuses a browser Origin other than the service's own or localhost (DNS rebinding, MCP Transports)", async () => {
    expect((await post({ origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ origin: testVars.WEB_URL })).status).toBe(200);
    expect((await post({ origin: "http://localhost:6274" })).status).toBe(200);
    expect((await post({})).status).toBe(200);
  });

  it("answers a body that is not JSON with the JSON-RPC parse error", async () => {
    const res = await call("/mcp/v1", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
  });

  it("answers GET with 405: a stateless server offers no server-initiated stream", async () => {
    const res = await call("/mcp/v1", { headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(405);
  });
});

describe("/mcp answers as /mcp/v1 (the MCP Inspector's CLI rewrites endpoints to /mcp)", () => {
  it.each([
    ["2025-11-25 (initialize)", false],
    ["2026-07-28 (per request)", true],
  ])("lists and calls the tools at %s", async (_era, modern) => {
    const word = modern ? "nebula" : "comet";
    const article = await addArticle({ title: `The ${word} over the harbour`, bodyText: `A ${word} was seen.`, vertical: "science" });
    const client = await mcpClient({ modern, path: "/mcp" });
    expect(client.getServerVersion()?.name).toBe("narration");
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...NAMES].sort());
    const found = await client.callTool({ name: "search_articles", arguments: { query: word, limit: 3 } });
    expect((found.structuredContent as { articles: { slug: string }[] }).articles.map((a) => a.slug)).toEqual([article.slug]);
    await client.close();
  });

  it("keeps the transport's rules there too: Origin check, 405 on GET, 401 for a bad token", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    expect((await call("/mcp", { method: "POST", body: JSON.stringify(init), headers: { ...headers, origin: "https://evil.example" } })).status).toBe(403);
    expect((await call("/mcp", { headers: { accept: "text/event-stream" } })).status).toBe(405);
    const bad = await call("/mcp", { method: "POST", body: JSON.stringify(init), headers: { ...headers, authorization: "Bearer not-a-token" } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("WWW-Authenticate")).toContain(`resource_metadata="${testVars.BASE_URL}/.well-known/oauth-protected-resource"`);
  });
});
