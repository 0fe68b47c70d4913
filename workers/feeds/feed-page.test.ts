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

describe("the feed page's own rules, one at a time (issue 46: mutants of feed-page.ts that no test saw)", () => {
  /** A feed with `channel` inside its channel and one item of `item`. */
  const feed = (item: string, channel = "") =>
    feedPage(
      `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>T</title>${channel}<item><title>E</title>${item}</item></channel></rss>`,
      new Headers({ "Cache-Control": "private, no-store", ETag: '"x"', "Last-Modified": "Mon, 02 Nov 2026 00:00:00 GMT", "Content-Length": "9" }),
    );

  it("runs no script, loads only the cover, may not be framed and is never sniffed; keeps the feed's caching, not its validators", async () => {
    const res = feed("");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    for (const name of ["etag", "last-modified", "content-length"]) expect(res.headers.get(name), name).toBeNull();
    // Its look is inline (the policy allows no sheet from elsewhere): light and dark, a visible focus.
    const style = /<style>([^<]*)<\/style>/.exec(await res.text())![1];
    expect(style).toContain("prefers-color-scheme:dark");
    expect(style).toContain(":focus-visible{outline:3px solid #0b57d0");
  });

  it("links only an http(s) address, whatever its case; anything else is shown as text", async () => {
    for (const [link, linked] of [
      ["https://example.com/a", true],
      ["HTTP://EXAMPLE.COM/A", true],
      ["javascript:alert(1)", false],
      ["ftp://example.com/a", false],
      ["/relative/page", false],
      ["see https://example.com/a", false],
    ] as const) {
      const html = await feed(`<link>${link}</link>`).text();
      expect(html.includes(`<a href="${link}">E</a>`), link).toBe(linked);
      if (!linked) expect(html, link).toContain("<li>E</li>");
    }
  });

  it("dates an episode in UTC, in the feed's language, and leaves out a date that is not one", async () => {
    const dated = async (pubDate: string | null, language = "en") =>
      /<li>E(.*)<\/li>/.exec(await feed(pubDate === null ? "" : `<pubDate>${pubDate}</pubDate>`, `<language>${language}</language>`).text())![1];
    // 23:30 in New York is the next day in UTC.
    expect(await dated("Mon, 02 Nov 2026 23:30:00 -0500")).toBe(' <span class="note">· <time datetime="2026-11-03T04:30:00.000Z">Nov 3, 2026</time></span>');
    expect(await dated("Mon, 02 Nov 2026 23:30:00 -0500", "de")).toContain(">03.11.2026</time>");
    // A language Intl cannot read dates it in English.
    expect(await dated("Mon, 02 Nov 2026 12:00:00 GMT", "not a language")).toContain(">Nov 2, 2026</time>");
    expect(await dated("yesterday")).toBe("");
    expect(await dated(null)).toBe("");
  });

  it("a feed that names no language is read as English, left to right, its dates too", async () => {
    const html = await feed("<pubDate>Mon, 02 Nov 2026 12:00:00 GMT</pubDate>").text();
    expect(html).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
    expect(html).toContain(">Nov 2, 2026</time>");
    // Nor its own address: no app is offered one.
    expect(html).toContain('<ul class="apps" aria-labelledby="subscribe"></ul>');
  });
});

describe("what the feed page shows (issue 46: its mutation run)", () => {
  const SELF = "https://narration.example.com/v1/podcasts/service.xml";
  /** The page of a feed with `channel` inside its channel (and nothing else but its title). */
  const page = (channel: string) =>
    feedPage(
      `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>T</title>${channel}</channel></rss>`,
      new Headers(),
    ).text();

  it("shows the cover only at an http(s) address", async () => {
    expect(await page('<itunes:image href="https://example.com/c.png"/>')).toContain('<img class="cover" alt="" src="https://example.com/c.png">');
    for (const channel of ['<itunes:image href="javascript:alert(1)"/>', ""]) expect(await page(channel), channel).not.toContain("<img");
  });

  it("names every podcast app beside its link to the feed's own address", async () => {
    const html = await page(`<atom:link href="${SELF}" rel="self" type="application/rss+xml"/>`);
    const apps = podcastApps(SELF);
    expect(apps.length).toBeGreaterThan(3);
    for (const app of apps) expect(html).toContain(`<li><a href="${app.href.replaceAll("&", "&amp;")}">${app.name}</a></li>`);
  });

  it("says so when there are no episodes, and links the platform's site only at an http(s) address", async () => {
    const html = await page("<link>https://narration.example.com/</link>");
    expect(html).toContain('<p lang="en" dir="ltr">No episodes yet.</p>');
    expect(html).not.toContain("<ol");
    expect(html).toContain('<p class="note" lang="en" dir="ltr"><a href="https://narration.example.com/">Narration</a>: articles, read aloud.</p>');
    for (const channel of ["<link>javascript:alert(1)</link>", ""]) expect(await page(channel), channel).not.toContain(">Narration</a>");
  });

  it("marks its own English words as English, left to right, on the page of a feed in another language", async () => {
    const html = await page("<language>ar</language><podcast:locked>yes</podcast:locked><link>https://narration.example.com/</link>");
    expect(html).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);
    for (const own of [
      '<p class="kind" lang="en" dir="ltr">Podcast feed</p>',
      '<p class="warn" lang="en" dir="ltr">This is a private feed',
      '<h2 id="subscribe" lang="en" dir="ltr">Subscribe</h2>',
      '<p lang="en" dir="ltr">This address is a podcast feed',
      '<p lang="en" dir="ltr"><label for="feed-url">',
      '<h2 id="episodes" lang="en" dir="ltr">Episodes</h2>',
      '<p lang="en" dir="ltr">No episodes yet.</p>',
      '<p class="note" lang="en" dir="ltr"><a href=',
    ]) {
      expect(html).toContain(own);
    }
  });
});
