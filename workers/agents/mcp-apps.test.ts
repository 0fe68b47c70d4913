import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { mcpClient } from "../../test/support/mcp-client";
import { testVars } from "../../test/vars";
import views from "./apps/views.json";

/**
 * The MCP Apps views (extension io.modelcontextprotocol/ui, specification 2026-01-26; docs/agents/apps.md "A player
 * inside the chat") over the official SDK client in both revisions: what tools/list declares ("Resource
 * Discovery"), what resources/read answers ("UI Resource Format"), and that a host without the extension gets
 * the tools' results as before. The views themselves run in Chromium: test-browser/mcp-apps.test.mjs.
 */

const PLAYER = "ui://narration/player";
const SEARCH = "ui://narration/search";
const ORIGIN = new URL(testVars.BASE_URL).origin;

describe.each([
  ["2025-11-25 (initialize)", false],
  ["2026-07-28 (per request)", true],
])("MCP Apps at %s", (_era, modern) => {
  it("declares the extension, and a ui:// view on get_audio_url and search_articles only", async () => {
    const client = await mcpClient({ modern });
    expect(client.getServerCapabilities()?.extensions).toMatchObject({ [EXTENSION_ID]: {} });
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t._meta]));
    expect(byName.get_audio_url).toEqual({ ui: { resourceUri: PLAYER }, [RESOURCE_URI_META_KEY]: PLAYER });
    expect(byName.search_articles).toEqual({ ui: { resourceUri: SEARCH }, [RESOURCE_URI_META_KEY]: SEARCH });
    for (const name of ["get_article", "subscribe_topic", "list_subscriptions", "digest"]) expect(byName[name], name).toBeUndefined();
    const { resources } = await client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      [PLAYER, RESOURCE_MIME_TYPE],
      [SEARCH, RESOURCE_MIME_TYPE],
    ]);
    await client.close();
  });

  it.each([
    [PLAYER, "player.js"],
    [SEARCH, "search.js"],
  ] as const)("reads %s as one HTML document with its script inlined and BASE_URL's origin as its only CSP domain", async (uri, script) => {
    const client = await mcpClient({ modern });
    const { contents } = await client.readResource({ uri });
    expect(contents).toHaveLength(1);
    const [content] = contents;
    expect(content).toMatchObject({ uri, mimeType: RESOURCE_MIME_TYPE });
    expect(content._meta).toEqual({ ui: { csp: { connectDomains: [ORIGIN], resourceDomains: [ORIGIN] }, prefersBorder: true } });
    const html = "text" in content ? content.text : "";
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain(`<script type="module">${views[script]}</script>`);
    expect(html).toContain(`<style>${views["view.css"]}</style>`);
    expect(html).toContain(`<meta name="narration-api" content="${testVars.BASE_URL}`);
    // Nothing is loaded from anywhere: no src or href in the document.
    expect(html).not.toMatch(/\s(src|href)=/);
    await client.close();
  });

  it("answers a ui:// resource it does not have with an error", async () => {
    const client = await mcpClient({ modern });
    await expect(client.readResource({ uri: "ui://narration/elsewhere" })).rejects.toThrow(/not found/i);
    await client.close();
  });

  it("gives a host without the extension the results it always had: content and structuredContent, no view data", async () => {
    const word = modern ? "sextant" : "astrolabe";
    const article = await addArticle({
      title: `The ${word} restored`,
      bodyText: `A ${word} was restored.`,
      vertical: "science",
      audioKey: `k-${word}`,
      listenSeconds: 40,
    });
    const client = await mcpClient({ modern });
    const found = await client.callTool({ name: "search_articles", arguments: { query: word } });
    // The 2026-07-28 SDK adds its own `_meta` to every result; nothing of the views' is in it.
    expect(Object.keys(found).filter((k) => k !== "_meta")).toEqual(["content", "structuredContent"]);
    expect(Object.keys(found._meta ?? {}).filter((k) => k === "ui" || k.startsWith("ui/"))).toEqual([]);
    expect(JSON.parse((found.content as { text: string }[])[0].text)).toEqual(found.structuredContent);
    expect((found.structuredContent as { articles: { slug: string }[] }).articles.map((a) => a.slug)).toEqual([article.slug]);
    await client.close();
  });
});
