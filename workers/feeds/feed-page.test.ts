import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { adminHeaders, call, jsonBody } from "../../test/support/client";
import { feedListener, forgetEdgeCache, PUBLIC_FEED_PATHS, readyArticle } from "../../test/support/feeds";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { podcastApps } from "../kernel/public-urls";
import { feedPage } from "./feed-page";

/**
 * A feed URL in a browser (docs/feeds.md "Feeds in a browser", issue 42 item 5): a request that accepts
 * text/html gets an HTML page drawn from the feed's XML, everyone else the feed's bytes; no XSLT.
 */

const CREATOR_FEED = "/v1/podcasts/creator/feedpage.xml";
const LANGUAGE_FEED = "/v1/podcasts/service.xml?language=ar";
beforeEach(() => forgetEdgeCache([...PUBLIC_FEED_PATHS, CREATOR_FEED, LANGUAGE_FEED]));

/** What Chromium sends for an address typed into its bar. */
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const HOSTILE = `<img src="x" onerror="alert(1)">`;

/** Every kind of feed: the service's, a topic's, a publisher's (creator tenant) and a listener's private one. */
async function everyFeed(): Promise<{ path: string; locked: boolean }[]> {
  await call("/v1/admin/creators", jsonBody("POST", { slug: "feedpage", name: "Feed Page Writes" }, adminHeaders));
  const creator = await env.DB.prepare("SELECT id FROM creators WHERE slug = 'feedpage'").first<{ id: number }>();
  await readyArticle({ title: `Both ways ${HOSTILE}`, vertical: "tech", host: "tech", creatorId: creator!.id });
  const { feedToken } = await feedListener(["tech"]);
  return [
    { path: "/v1/podcasts/service.xml", locked: false },
    { path: "/v1/podcasts/service-tech.xml", locked: false },
    { path: CREATOR_FEED, locked: false },
    { path: `/v1/podcasts/u/${feedToken}.xml`, locked: true },
  ];
}

/** The links (href) of an HTML page. */
const hrefs = (html: string) => [...html.matchAll(/ href="([^"]*)"/g)].map((m) => m[1].replaceAll("&amp;", "&"));

describe("feeds in a browser", () => {
  it("gives a podcast app the feed's bytes, with no stylesheet instruction, the same from the edge cache; every answer varies on Accept", async () => {
    for (const { path, locked } of await everyFeed()) {
      const app = await call(path, { headers: { Accept: "application/rss+xml, */*" } });
      const again = await call(path);
      expect([app.status, again.status], path).toEqual([200, 200]);
      for (const res of [app, again]) {
        expect(res.headers.get("content-type"), path).toBe("application/rss+xml; charset=utf-8");
        expect(res.headers.get("vary"), path).toContain("Accept");
      }
      const xml = await app.text();
      expect(await again.text()).toBe(xml);
      expect(xml, path).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?>\n<rss /);
      expect(xml).not.toContain("xml-stylesheet");
      expect(validatePodcastFeed(xml, { locked, checkArtworkSize: false }).problems, path).toEqual([]);
    }
  });

  it("gives a browser an HTML page of the same feed: its title, episodes written as text, the apps' links for its own address", async () => {
    for (const { path, locked } of await everyFeed()) {
      const xml = await (await call(path)).text();
      const self = /<atom:link href="([^"]+)" rel="self"/.exec(xml)![1].replaceAll("&amp;", "&");
      const res = await call(path, { headers: { Accept: BROWSER_ACCEPT } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("vary")).toContain("Accept");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(res.headers.get("etag")).toBeNull();
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
      // A hostile title is text, never markup.
      expect(html).toContain("Both ways &lt;img src=&quot;x&quot; onerror=&quot;alert(1)&quot;&gt;");
      expect(html).not.toContain(HOSTILE);
      const links = hrefs(html);
      for (const app of podcastApps(self)) expect(links, path).toContain(app.href);
      expect(html).toContain(`value="${self.replaceAll("&", "&amp;")}"`);
      expect(html.includes("This is a private feed"), path).toBe(locked);
      // HEAD answers the page's headers.
      const head = await call(path, { method: "HEAD", headers: { Accept: BROWSER_ACCEPT } });
      expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
    }
  });

  it("a private feed's page shows nothing its XML does not, and keeps its privacy headers", async () => {
    const feeds = await everyFeed();
    const { path } = feeds.find((f) => f.locked)!;
    const xml = await (await call(path)).text();
    const res = await call(path, { headers: { Accept: BROWSER_ACCEPT } });
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    const html = await res.text();
    // Every address on the page is in the feed (the apps' links are its own address, rewritten).
    const self = /<atom:link href="([^"]+)" rel="self"/.exec(xml)![1];
    const theirs = new Set(podcastApps(self).map((a) => a.href));
    for (const href of hrefs(html).filter((h) => !theirs.has(h))) expect(xml, href).toContain(href.replaceAll("&", "&amp;"));
    // No audio, transcript or chapters address reaches the page.
    expect(html).not.toMatch(/\/v1\/audio\/|transcripts|chapters/);
    // An unknown token is a 404 to a browser too.
    expect((await call("/v1/podcasts/u/not-a-token.xml", { headers: { Accept: BROWSER_ACCEPT } })).status).toBe(404);
  });

  it("the page of a feed in a right-to-left language has its lang and dir", async () => {
    await readyArticle({ title: "الجسر القديم", vertical: "news", language: "ar", languageSource: "given" });
    const html = await (await call(LANGUAGE_FEED, { headers: { Accept: BROWSER_ACCEPT } })).text();
    expect(html).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);
    expect(html).toContain("الجسر القديم");
    expect(html).toContain('<p class="kind" lang="en" dir="ltr">Podcast feed</p>');
  });

  it("no longer serves an XSL stylesheet", async () => {
    expect((await call("/v1/podcasts/feed.xsl")).status).toBe(404);
  });
});

describe("a feed page writes every text of the feed as text (issue 46: no test transformed a feed with a hostile title)", () => {
  /** XML text escaping, as the platform writes a feed. */
  const xml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
  const ESCAPED = "&lt;img src=&quot;x&quot; onerror=&quot;alert(1)&quot;&gt;";
  const LINK = `https://example.com/a?"><script>alert(1)</script>`;
  const page = () =>
    feedPage(
      `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>${xml(`Channel ${HOSTILE}`)}</title><description>${xml(`About ${HOSTILE}`)}</description><link>${xml(LINK)}</link>
<language>${xml(`en"><script>alert(1)</script>`)}</language><itunes:image href="${xml(LINK)}"/>
<atom:link href="${xml(`${LINK}&x=1`)}" rel="self" type="application/rss+xml"/>
<item><title>${xml(`Episode ${HOSTILE}`)}</title><link>${xml(LINK)}</link></item>
</channel></rss>`,
      new Headers(),
    ).text();

  it("the channel's title in the page's <title> and <h1>, its description, and each episode's title", async () => {
    const html = await page();
    expect(html).toContain(`<title>Channel ${ESCAPED}</title>`);
    expect(html).toContain(`<h1>Channel ${ESCAPED}</h1>`);
    expect(html).toContain(`<p class="about">About ${ESCAPED}</p>`);
    expect(html).toContain(`>Episode ${ESCAPED}</a>`);
    expect(html).not.toContain(HOSTILE);
  });

  it("every address and the language inside their attributes: the cover, the links, the feed's own address", async () => {
    const html = await page();
    const attribute = "https://example.com/a?&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;";
    expect(html).toContain(`<img class="cover" alt="" src="${attribute}">`);
    expect(html).toContain(`<a href="${attribute}">Episode`);
    expect(html).toContain(`<a href="${attribute}">Narration</a>`);
    expect(html).toContain(`value="${attribute}&amp;x=1"`);
    expect(html).toContain('<html lang="en&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toContain("<script>");
  });
});
