// The MCP App views (workers/agents/apps/view, built into workers/agents/apps/views.json) build their page in
// the client from tool results: a title, a publisher, an article's text, a search snippet, an audio URL, all
// from publishers. They must become text, never elements or attributes, and run nothing (issue 46 item 3).
// Planted bugs this catches: a title, publisher or paragraph written with innerHTML, or a snippet's text
// outside a <mark> parsed into the list as markup, which runs an `<img onerror>`; an audio URL other than
// http(s) put on the audio element. The built views are framed on loopback by a small host that speaks the
// view's side of MCP Apps (ui/initialize, then the tool's result, then the tools the view calls), so no
// platform needs to start.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { servedToBrowser } from "./support/loopback.mjs";

const views = JSON.parse(readFileSync("workers/agents/apps/views.json", "utf8"));
const HOSTILE = `<img src="x" onerror="top.__pwned = (top.__pwned || 0) + 1">"'`;
const html = (s) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
const JS_URL = "javascript:top.__pwned=(top.__pwned||0)+1";

const article = {
  slug: `"><img src=x onerror=alert(1)>`,
  title: `Title ${HOSTILE}`,
  publisher: `Publisher ${HOSTILE}`,
  author: `Author ${HOSTILE}`,
  description: `About ${HOSTILE}`,
  language: `en"><img src=x onerror=alert(1)>`,
  voice: `Voice ${HOSTILE}`,
  body_text: `Paragraph ${HOSTILE}\n\nAnother ${HOSTILE}`,
};
const structured = (content) => ({ content: [{ type: "text", text: JSON.stringify(content) }], structuredContent: content });
/** What each view is given: the tool's result and the answers of the tools it calls. */
const SCENES = {
  player: {
    result: structured({ slug: article.slug, state: "ready", audio_url: JS_URL, listen_seconds: 60, voice: article.voice, language: article.language }),
    tools: { get_article: structured(article), get_audio_url: structured({ slug: article.slug, state: "ready", audio_url: JS_URL, listen_seconds: 60 }) },
  },
  search: {
    result: structured({
      query: `Query ${HOSTILE}`,
      articles: [
        { ...article, audio_url: JS_URL, listen_seconds: 60, snippet: `before ${html(HOSTILE)} <mark>${html(HOSTILE)}</mark> after` },
        { ...article, slug: "raw", audio_url: null, listen_seconds: null, snippet: `raw ${HOSTILE} <mark>${HOSTILE}</mark>` },
      ],
    }),
    tools: { get_audio_url: structured({ slug: "raw", state: "ready", audio_url: JS_URL, listen_seconds: 60 }) },
  },
};

/** The host page: frames the view and answers it as a chat's host would. */
const hostPage = (view) => `<!doctype html><html lang="en"><head><title>Host</title></head><body>
<iframe src="/view/${view}.html" title="view"></iframe>
<script>
const scene = ${JSON.stringify(SCENES[view])};
const frame = document.querySelector("iframe");
addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  const send = (message) => frame.contentWindow.postMessage({ jsonrpc: "2.0", ...message }, "*");
  if (m.method === "ui/initialize") send({ id: m.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "test", version: "1" }, hostCapabilities: {}, hostContext: {} } });
  else if (m.method === "ui/notifications/initialized") send({ method: "ui/notifications/tool-result", params: scene.result });
  else if (m.method === "tools/call") send({ id: m.id, result: scene.tools[m.params.name] ?? { isError: true, content: [{ type: "text", text: "no such tool" }] } });
});
</script></body></html>`;

const at = servedToBrowser(async () => (req, res) => {
  const url = new URL(req.url, at.base);
  const view = /^\/view\/(player|search)\.html$/.exec(url.pathname)?.[1];
  if (view)
    return res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><html lang="en"><head><title>View</title><style>${views["view.css"]}</style></head><body><main></main><script type="module">${views[`${view}.js`]}</script></body></html>`,
      );
  const host = /^\/(player|search)$/.exec(url.pathname)?.[1];
  if (host) return res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(hostPage(host));
  res.writeHead(404).end();
});

/** Every element and attribute in the view, for the assertion that none came from the data. */
const markupOf = (frame) =>
  frame.evaluate(() =>
    [...document.querySelectorAll("*")].map((el) => ({ tag: el.localName, attributes: [...el.attributes].map((a) => `${a.name}=${a.value}`) })),
  );

for (const view of ["player", "search"]) {
  test(`the ${view} view writes a hostile title, publisher, text and URL from a tool result as text, and runs none of it`, async () => {
    const page = await at.browser.newPage();
    await page.goto(`${at.base}/${view}`);
    const frame = page.frameLocator("iframe");
    await frame.getByText(`Publisher ${HOSTILE}`, { exact: false }).first().waitFor();
    if (view === "search") {
      await frame.getByRole("button", { name: "Play" }).first().click();
      await frame.getByRole("button", { name: "Play" }).nth(1).click();
    }
    const inner = page.frames().find((f) => f.url().includes(`/view/${view}.html`));
    const markup = await markupOf(inner);
    assert.deepEqual(
      markup.filter((m) => m.tag === "img" || (m.tag === "script" && m.attributes.length > 1)),
      [],
      "no element from the data",
    );
    // The slug is set whole as a data- value (dataset), never parsed: the one attribute value the data may fill.
    const attributes = markup.flatMap((m) => m.attributes).filter((a) => a !== `data-slug=${article.slug}`);
    assert.deepEqual(
      attributes.filter((a) => /onerror|javascript:|pwned/i.test(a)),
      [],
      "no attribute from the data",
    );
    assert.ok((await inner.locator("h1, h2").allTextContents()).includes(article.title), "the title shown as its text");
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await inner.evaluate(() => window.__pwned), undefined);
    await page.close();
  });
}
