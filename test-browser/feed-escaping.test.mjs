// A feed opened in a browser is an HTML page the server draws from the feed's XML
// (workers/feeds/feed-page.ts), and every text in it comes from publishers and listeners: episode
// titles, the channel's title and description. The page must write them as text, never as markup
// (issue 46). Planted bug this catches: an episode title (or the channel's title or description) put
// into the page without escapeHtml, which runs a title's `<img onerror>` in the browser. The page is
// drawn by the module itself (bundled) from a hostile feed and served on loopback, so no platform needs
// to start; it is also checked with axe at 390 and 1280 px, in a left-to-right and a right-to-left language.
import assert from "node:assert/strict";
import { test } from "node:test";
import { build } from "esbuild";
import { checkEverywhere } from "./support/axe.mjs";
import { servedToBrowser } from "./support/loopback.mjs";

const HOSTILE = `<img src="x" onerror="window.__pwned = (window.__pwned || 0) + 1">`;

/** XML text escaping, as the platform writes a feed. */
const xml = (s) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** A hostile feed in `language`, as the platform writes one. */
const feedXml = (language) => `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>${xml(`Channel ${HOSTILE}`)}</title><description>${xml(`About ${HOSTILE}`)}</description><link>${at.base}/</link><language>${language}</language>
<atom:link href="${at.base}/feed.xml" rel="self" type="application/rss+xml"/>
<item><title>${xml(`Episode ${HOSTILE}`)}</title><link>${at.base}/a</link><pubDate>Sat, 28 Nov 2026 10:00:00 GMT</pubDate></item>
<item><title>${xml("الجسر القديم")}</title><link>${xml(`javascript:alert(1)`)}</link><pubDate>Fri, 27 Nov 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`;

const at = servedToBrowser(async () => {
  const bundled = await build({
    entryPoints: ["workers/feeds/feed-page.ts"],
    bundle: true,
    format: "esm",
    write: false,
    platform: "neutral",
    mainFields: ["module", "main"],
    logLevel: "error",
  });
  const { feedPage } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`);
  return async (req, res) => {
    const page = feedPage(feedXml(req.url === "/ar.xml" ? "ar" : "en"), new Headers({ "Cache-Control": "private, no-cache" }));
    res.writeHead(page.status, Object.fromEntries(page.headers)).end(await page.text());
  };
});

test("a feed page writes a hostile episode title, channel title and description as text, and runs none of it", async () => {
  const page = await at.browser.newPage();
  await page.goto(`${at.base}/feed.xml`);
  await page.locator("h1").waitFor();
  // Give an injected image the time to fail and fire its handler.
  await page.waitForLoadState("load");
  assert.equal(await page.locator("h1").textContent(), `Channel ${HOSTILE}`);
  assert.equal(await page.locator("p.about").textContent(), `About ${HOSTILE}`);
  assert.equal(await page.locator("ol li a").first().textContent(), `Episode ${HOSTILE}`);
  assert.equal(await page.locator("img[onerror]").count(), 0);
  // A link that is not http(s) is not a link.
  assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await page.close();
});

test("the feed page reads in its language's direction and has no axe finding at 390 and 1280 px", async () => {
  for (const [path, lang, dir] of [
    ["/feed.xml", "en", "ltr"],
    ["/ar.xml", "ar", "rtl"],
  ]) {
    const page = await at.browser.newPage();
    await page.goto(`${at.base}${path}`);
    assert.deepEqual(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), [lang, dir]);
    await checkEverywhere(page, path);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/feed-${lang}-${width}.png`, fullPage: true });
    }
    await page.close();
  }
});
