// A feed opened in Chromium is a page its XSL stylesheet builds (workers/feeds/feed-stylesheet.ts), and
// every text in it comes from publishers and listeners: episode titles, the channel's title and
// description. The stylesheet must write them as text, never as markup (issue 46). Planted bug this
// catches: `disable-output-escaping="yes"` on an episode title (or the channel's title or description),
// which runs a title's `<img onerror>` in the browser. The feed is a hostile one served on loopback with
// the stylesheet's own text (bundled from its module), so no platform needs to start.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { build } from "esbuild";
import { launchBrowser } from "../scripts/browser.mjs";

const HOSTILE = `<img src="x" onerror="window.__pwned = (window.__pwned || 0) + 1">`;

/** XML text escaping, as the platform writes a feed. */
const xml = (s) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

let server;
let browser;
let base;

before(async () => {
  const bundled = await build({ entryPoints: ["workers/feeds/feed-stylesheet.ts"], bundle: true, format: "esm", write: false, platform: "neutral" });
  const { FEED_STYLESHEET } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`);
  server = createServer((req, res) => {
    if (req.url === "/feed.xsl") {
      res.writeHead(200, { "Content-Type": "application/xslt+xml; charset=utf-8" }).end(FEED_STYLESHEET);
      return;
    }
    const feed = `<?xml version="1.0" encoding="utf-8"?>
<?xml-stylesheet type="text/xsl" href="${base}/feed.xsl"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>${xml(`Channel ${HOSTILE}`)}</title><description>${xml(`About ${HOSTILE}`)}</description><link>${base}/</link>
<atom:link rel="self" href="${base}/feed.xml" type="application/rss+xml"/>
<item><title>${xml(`Episode ${HOSTILE}`)}</title><link>${base}/a</link><pubDate>Sat, 28 Nov 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`;
    res.writeHead(200, { "Content-Type": "application/xml; charset=utf-8" }).end(feed);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

test("a feed page writes a hostile episode title, channel title and description as text, and runs none of it", async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/feed.xml`);
  await page.locator("h1").waitFor();
  // Give an injected image the time to fail and fire its handler.
  await page.waitForLoadState("load");
  assert.equal(await page.locator("h1").textContent(), `Channel ${HOSTILE}`);
  assert.equal(await page.locator("main > p").nth(1).textContent(), `About ${HOSTILE}`);
  assert.equal(await page.locator("ol li a").textContent(), `Episode ${HOSTILE}`);
  assert.equal(await page.locator("img[onerror]").count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await page.close();
});
