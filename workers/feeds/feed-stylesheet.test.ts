import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { feedListener, forgetEdgeCache, PUBLIC_FEED_PATHS, readyArticle } from "../../test/support/feeds";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { podcastApps } from "../kernel/public-urls";

/** A feed URL in a browser (docs/feeds.md "Feeds in a browser"): the stylesheet, and the type each reader gets. */

beforeEach(() => forgetEdgeCache(PUBLIC_FEED_PATHS));

/** What Chromium sends for an address typed into its bar. */
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const STYLESHEET = `<?xml-stylesheet type="text/xsl" href="${env.BASE_URL}/v1/podcasts/feed.xsl"?>`;

describe("feeds in a browser", () => {
  it("every feed names the stylesheet right after the XML declaration, and stays a valid podcast feed for both parsers", async () => {
    await readyArticle({ title: "Styled", vertical: "tech", host: "tech", declassified: true });
    const { feedToken } = await feedListener();
    for (const [path, locked] of [...PUBLIC_FEED_PATHS.map((p) => [p, false] as const), [`/v1/podcasts/u/${feedToken}.xml`, true] as const]) {
      const xml = await (await call(path)).text();
      expect(xml.split("\n").slice(0, 2), path).toEqual(['<?xml version="1.0" encoding="utf-8"?>', STYLESHEET]);
      expect(validatePodcastFeed(xml, { locked, checkArtworkSize: false }).problems, path).toEqual([]);
    }
  });

  it("gives a browser the same bytes as application/xml, which it renders, and a podcast app application/rss+xml", async () => {
    await readyArticle({ title: "Both ways", vertical: "tech" });
    const { feedToken } = await feedListener();
    for (const path of ["/v1/podcasts/service-tech.xml", `/v1/podcasts/u/${feedToken}.xml`]) {
      const app = await call(path, { headers: { Accept: "application/rss+xml, */*" } });
      const browser = await call(path, { headers: { Accept: BROWSER_ACCEPT } });
      // The second ask of the public feed comes from the edge cache: it too is typed for its reader.
      const appAgain = await call(path);
      expect([app.status, browser.status, appAgain.status], path).toEqual([200, 200, 200]);
      expect(app.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
      expect(appAgain.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
      expect(browser.headers.get("content-type")).toBe("application/xml; charset=utf-8");
      for (const res of [app, browser]) expect(res.headers.get("vary")).toContain("Accept");
      expect(await browser.text()).toBe(await app.text());
    }
  });

  it("serves the stylesheet, whose subscribe links are the podcast apps' links for the feed's own address", async () => {
    const res = await call("/v1/podcasts/feed.xsl");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xslt+xml; charset=utf-8");
    const xsl = await res.text();
    expect(xsl).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<xsl:stylesheet version="1\.0"/);
    // The transform fills $bare (the address without its scheme) and $encoded (percent-encoded); do the same by hand.
    const feed = "http://127.0.0.1:8787/v1/podcasts/u/T0k-en_.xml";
    const fill = (href: string) =>
      href.replace("{$bare}", feed.replace("http://", "")).replace("{$encoded}", encodeURIComponent(feed)).replaceAll("&amp;", "&");
    const links = [...xsl.matchAll(/<li><a href="([^"]+)">([^<]+)<\/a><\/li>/g)].map((m) => ({ name: m[2], href: fill(m[1]) }));
    expect(links).toEqual(podcastApps(feed));
    expect(xsl).toContain('<xsl:variable name="self" select="/rss/channel/atom:link[@rel=\'self\']/@href"/>');
  });
});
