// The home page's search results are HTML a browser builds itself (workers/web/client/home.ts) from the
// search API's JSON: a title, a publisher, a slug and a snippet whose only markup is <mark>. Every one of
// them comes from a publisher, so the client must make text of them, never elements (issue 46 item 3:
// the escaping suite reaches the HTML built on the client). Planted bugs this catches: a result written
// with innerHTML, or the snippet's text outside a <mark> put into the list as markup, which runs an
// `<img onerror>` in the browser. The client module is bundled as the build does and served on loopback
// with a search API that answers hostile results, so no platform needs to start.
import assert from "node:assert/strict";
import { test } from "node:test";
import { build } from "esbuild";
import { servedToBrowser } from "./support/loopback.mjs";

const HOSTILE = `<img src="x" onerror="window.__pwned = (window.__pwned || 0) + 1">`;
/** HTML text escaping, as the search API writes a snippet around its <mark> runs. */
const html = (s) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

const RESULTS = [
  {
    slug: `"><img src=x onerror=alert(1)>`,
    title: `Title ${HOSTILE}`,
    publisher: `Publisher ${HOSTILE}`,
    // As the API sends it: the text escaped, the match marked.
    snippet: `before ${html(HOSTILE)} <mark>${html(`match ${HOSTILE}`)}</mark> after`,
  },
  // As an API that forgot to escape would send it: the client still makes no element of it.
  { slug: "raw", title: "Raw snippet", publisher: "P", snippet: `raw ${HOSTILE} <mark>${HOSTILE}</mark>` },
];

const at = servedToBrowser(async () => {
  const bundled = await build({ entryPoints: ["workers/web/client/home.ts"], bundle: true, format: "esm", write: false, logLevel: "error" });
  const script = bundled.outputFiles[0].text;
  return (req, res) => {
    const url = new URL(req.url, at.base);
    if (url.pathname === "/v1/stories/search") return res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ results: RESULTS }));
    if (url.pathname === "/home.js") return res.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
    // The search section as workers/web/home.ts writes it.
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(`<!doctype html><html lang="en"><head><title>Search</title></head><body>
<form class="search" role="search" data-search data-api="${at.base}" hidden><label for="q">Search the archive</label> <input type="search" id="q" name="q"></form>
<p class="visually-hidden" role="status" data-search-status></p><ol class="articles" data-search-results></ol>
<script type="module" src="/home.js"></script></body></html>`);
  };
});

test("search results built in the browser write a hostile title, publisher, slug and snippet as text, and run none of it", async () => {
  const page = await at.browser.newPage();
  await page.goto(`${at.base}/`);
  await page.locator("input[name=q]").fill("match");
  const links = page.locator("[data-search-results] li > a");
  await links.nth(1).waitFor();
  await page.waitForLoadState("load");
  assert.equal(await links.first().textContent(), `Title ${HOSTILE}`);
  assert.equal(await page.locator("[data-search-results] li .muted").first().textContent(), ` Publisher ${HOSTILE}`);
  // The slug stays inside the link's address.
  assert.equal(await links.first().getAttribute("href"), `/articles/${encodeURIComponent(RESULTS[0].slug)}`);
  // The escaped snippet reads as the text it stands for, its match marked; the unescaped one as its own characters.
  const snippets = page.locator("[data-search-results] p.snippet");
  assert.equal(await snippets.first().textContent(), `before ${HOSTILE} match ${HOSTILE} after`);
  assert.equal(await snippets.first().locator("mark").textContent(), `match ${HOSTILE}`);
  assert.equal(await snippets.nth(1).textContent(), `raw ${HOSTILE} ${HOSTILE}`);
  // No element was made of any of it.
  assert.equal(await page.locator("[data-search-results] img").count(), 0);
  assert.equal(await page.locator("[data-search-results] mark").count(), 2);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await page.close();
});
