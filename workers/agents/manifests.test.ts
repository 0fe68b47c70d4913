import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { call } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { mcpClient } from "../../test/support/mcp-client";

/** The digest's price in docs/agents/payments.md "Prices" (USDC atomic units), written out so that a changed price fails here. */
const DIGEST_PRICE = 50_000;

/** The discovery manifests (docs/agents/tools.md "Agents"), generated from the tool definitions. */

interface ManifestTool {
  type: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  tier: "free" | "paid";
  price?: { amount: string; amount_when_cached?: string };
}

const PAID = ["get_audio_url", "subscribe_topic", "digest"];
const FREE = ["search_articles", "get_article", "list_subscriptions"];

describe("/.well-known/mcp.json", () => {
  it("is version 2026-01 with the endpoint, the ways to authenticate and the six tools", async () => {
    const res = await call("/.well-known/mcp.json");
    expect(res.status).toBe(200);
    const manifest = await res.json<{ version: string; endpoint: string; authentication: Record<string, unknown>; tools: ManifestTool[] }>();
    expect(manifest.version).toBe("2026-01");
    expect(manifest.endpoint).toBe(`${testVars.BASE_URL}/mcp/v1`);
    expect(manifest.authentication).toMatchObject({
      oauth2: { authorization_server: `${testVars.WEB_URL}/.well-known/oauth-authorization-server` },
      x402: { version: 2, network: "eip155:84532", asset: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) },
    });
    // docs/rules.md 5 rule 1: which tools are free and which are paid.
    expect(manifest.tools.filter((t) => t.tier === "free").map((t) => t.name)).toEqual(FREE);
    expect(manifest.tools.filter((t) => t.tier === "paid").map((t) => t.name)).toEqual(PAID);
    for (const tool of manifest.tools) {
      expect(tool.type).toBe("function");
      if (tool.tier === "paid") {
        const amount = Number(tool.price?.amount);
        expect(amount, tool.name).toBeGreaterThanOrEqual(1000);
        expect(amount, tool.name).toBeLessThanOrEqual(300000);
      } else expect(tool.price).toBeUndefined();
    }
    const audio = manifest.tools.find((t) => t.name === "get_audio_url")!;
    expect(Number(audio.price!.amount_when_cached)).toBeLessThan(Number(audio.price!.amount));
    expect(Number(manifest.tools.find((t) => t.name === "digest")!.price!.amount)).toBe(DIGEST_PRICE);
  });

  it("gives each tool parameters equal to its MCP inputSchema", async () => {
    const manifest = await (await call("/.well-known/mcp.json")).json<{ tools: ManifestTool[] }>();
    const client = await mcpClient();
    const { tools } = await client.listTools();
    await client.close();
    expect(manifest.tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    for (const tool of tools) {
      expect(manifest.tools.find((t) => t.name === tool.name)!.parameters, tool.name).toEqual(tool.inputSchema);
    }
  });
});

describe("/.well-known/openai-app.yaml", () => {
  it("is OpenAPI 3.1 in YAML of the six agent operations and add_link, with the OAuth2 authorization-code scheme", async () => {
    const res = await call("/.well-known/openai-app.yaml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/yaml/);
    const doc = parse(await res.text());
    expect(doc.openapi).toBe("3.1.0");
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string; security: unknown }>>).flatMap((p) => Object.values(p));
    expect(ops.map((o) => o.operationId).sort()).toEqual([...FREE, ...PAID, "add_link"].sort());
    expect(ops.find((o) => o.operationId === "digest")!.security).toEqual([{ OAuth2: ["digest:run"] }]);
    expect(ops.find((o) => o.operationId === "add_link")!.security).toEqual([{ OAuth2: ["links:write"] }]);
    expect(doc.components.securitySchemes.OAuth2).toMatchObject({
      type: "oauth2",
      flows: {
        authorizationCode: {
          authorizationUrl: `${testVars.WEB_URL}/oauth/authorize`,
          scopes: {
            "articles:read": expect.any(String),
            "subscriptions:write": expect.any(String),
            "digest:run": expect.any(String),
            "links:write": expect.any(String),
          },
        },
      },
    });
  });
});

describe("/.well-known/agentkit-tools.json", () => {
  it("lists each tool with its HTTP operation, tier and, for paid ones, the x402 terms", async () => {
    const manifest = await (await call("/.well-known/agentkit-tools.json")).json<{
      tools: (ManifestTool & { method: string; url: string; x402?: { amount: string; network: string; asset: string } })[];
    }>();
    expect(manifest.tools.map((t) => `${t.method} ${t.url.replace(testVars.BASE_URL, "")} ${t.name}`)).toEqual([
      "GET /v1/agent/articles search_articles",
      "GET /v1/agent/articles/{slug} get_article",
      "GET /v1/agent/articles/{slug}/audio get_audio_url",
      "POST /v1/agent/subscriptions subscribe_topic",
      "GET /v1/agent/subscriptions list_subscriptions",
      "POST /v1/agent/digest digest",
    ]);
    for (const tool of manifest.tools) {
      if (tool.tier === "paid") expect(tool.x402, tool.name).toMatchObject({ amount: expect.any(String), network: "eip155:84532" });
      else expect(tool.x402, tool.name).toBeUndefined();
    }
  });
});
