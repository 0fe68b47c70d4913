import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { addArticle, addPlays } from "../../test/support/articles";
import { sha256Hex } from "../core/crypto";
import { articles, audioObjects, database } from "../db";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { podcastGuid } from "./rss";
import { feedListener, forgetEdgeCache, PUBLIC_FEED_PATHS, readyArticle } from "../../test/support/feeds";

beforeEach(() => forgetEdgeCache(PUBLIC_FEED_PATHS));

/** GETs a public feed, checks it with the validator and returns the item titles. */
async function titles(path: string): Promise<string[]> {
  const res = await call(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
  const { feed, problems } = validatePodcastFeed(await res.text(), { locked: false, checkArtworkSize: true });
  expect(problems, path).toEqual([]);
  return (feed!.items ?? []).map((i) => i.title!);
}

describe("public feed paths (docs/rules.md 4, Podcast feeds)", () => {
  it("every public path answers GET with a valid podcast feed and HEAD with the same headers and no body", async () => {
    await readyArticle({ title: "Everywhere", vertical: "tech", host: "tech", declassified: true });
    for (const path of PUBLIC_FEED_PATHS) {
      await titles(path);
      const head = await call(path, { method: "HEAD" });
      expect(head.status, path).toBe(200);
      expect(head.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
      expect(await head.text()).toBe("");
    }
  });

  it("an unknown vertical or host is 404, and so is a POST's neighbour method: 405", async () => {
    expect((await call("/v1/podcasts/service-gardening.xml")).status).toBe(404);
    expect((await call("/v1/podcasts/service-gardening.xml", { method: "HEAD" })).status).toBe(404);
    expect((await call("/v1/podcasts/service.xml", { method: "POST" })).status).toBe(405);
  });

  it("the all-trending feed carries ready public audio and is also served at service-trending.xml", async () => {
    await readyArticle({ title: "Ready public" });
    await addArticle({ title: "Not narrated yet" });
    expect(await titles("/v1/podcasts/service.xml")).toEqual(["Ready public"]);
    const a = await (await call("/v1/podcasts/service.xml")).text();
    const b = await (await call("/v1/podcasts/service-trending.xml")).text();
    expect(b).toBe(a);
  });

  it("declassified carries only declassified articles, and is not taken by the vertical wildcard", async () => {
    await readyArticle({ title: "Case file", declassified: true, vertical: "news" });
    await readyArticle({ title: "Ordinary news", vertical: "news" });
    expect(await titles("/v1/podcasts/service-declassified.xml")).toEqual(["Case file"]);
  });

  it("a host feed carries the articles that host narrates; a slug that is also a vertical carries both", async () => {
    await readyArticle({ title: "Markets hosted", host: "markets", vertical: "finance" });
    await readyArticle({ title: "Comedy hosted", host: "comedy", vertical: "culture" });
    await readyArticle({ title: "Tech vertical only", vertical: "tech" });
    await readyArticle({ title: "Tech hosted", host: "tech", vertical: "science" });
    expect(await titles("/v1/podcasts/service-markets.xml")).toEqual(["Markets hosted"]);
    expect(await titles("/v1/podcasts/service-comedy.xml")).toEqual(["Comedy hosted"]);
    expect(await titles("/v1/podcasts/service-sports.xml")).toEqual([]);
    expect((await titles("/v1/podcasts/service-tech.xml")).sort()).toEqual(["Tech hosted", "Tech vertical only"]);
    expect(await titles("/v1/podcasts/service-science.xml")).toEqual(["Tech hosted"]);
    expect(await titles("/v1/podcasts/service-finance.xml")).toEqual(["Markets hosted"]);
  });

  it("every spelling of a feed serves the canonical feed's bytes", async () => {
    await readyArticle({ title: "Hosted", host: "tech", vertical: "science" });
    await readyArticle({ title: "Vertical", vertical: "tech" });
    const canonical = await (await call("/v1/podcasts/service-tech.xml")).text();
    for (const spelling of ["Tech", "technology"]) {
      expect(await (await call(`/v1/podcasts/service-${spelling}.xml`)).text(), spelling).toBe(canonical);
    }
  });

  it("parenting is the young_moms feed: same body, one identity (self link and podcast:guid)", async () => {
    await readyArticle({ title: "Sleep schedules", vertical: "young_moms" });
    expect(await titles("/v1/podcasts/service-parenting.xml")).toEqual(["Sleep schedules"]);
    const alias = await (await call("/v1/podcasts/service-parenting.xml")).text();
    const canonical = await (await call("/v1/podcasts/service-young_moms.xml")).text();
    expect(alias).toBe(canonical);
    const { feed } = validatePodcastFeed(canonical, { locked: false });
    expect(feed!.podcast!.guid).toBe(podcastGuid(`${env.BASE_URL}/v1/podcasts/service-young_moms.xml`));
  });

  it("never carries a stub or a private article, whatever the feed", async () => {
    const { listener } = await feedListener(["tech"]);
    const common = { vertical: "tech", host: "tech", declassified: true };
    await readyArticle({ ...common, title: "Public" });
    await readyArticle({ ...common, title: "Forwarded", visibility: "listener_private", ownerListenerId: listener.id });
    await readyArticle({ ...common, title: "Paywalled", visibility: "publisher_only" });
    for (const path of PUBLIC_FEED_PATHS.filter((p) => !/young_moms|parenting|science|finance|markets|sports|comedy|news|health/.test(p))) {
      const body = await (await call(path)).text();
      expect(body, path).toContain("Public");
      expect(body, path).not.toContain("Forwarded");
      expect(body, path).not.toContain("Paywalled");
    }
  });

  it("an item has the exact MP3 size, audio/mpeg, duration, Opus alternate, both transcripts and chapters", async () => {
    const article = await readyArticle({ title: "Sizes", summary: "What it is about." }, { size: 4321, duration: 125.6, opusBytes: 777 });
    const { feed } = validatePodcastFeed(await (await call("/v1/podcasts/service.xml")).text(), { locked: false });
    const [item] = feed!.items!;
    expect(item.enclosures).toEqual([{ url: `${env.BASE_URL}/v1/audio/${article.audioKey}.mp3`, length: 4321, type: "audio/mpeg" }]);
    expect(item.itunes!.duration).toBe(126);
    expect(item.description).toBe("What it is about.");
    expect(item.podcast!.alternateEnclosures![0]).toMatchObject({
      type: "audio/ogg",
      length: 777,
      sources: [{ uri: `${env.BASE_URL}/v1/audio/${article.audioKey}.opus` }],
    });
    expect(item.podcast!.transcripts).toEqual([
      { url: `${env.BASE_URL}/v1/podcasts/transcripts/${article.slug}.vtt`, type: "text/vtt", language: "en" },
      { url: `${env.BASE_URL}/v1/podcasts/transcripts/${article.slug}.json`, type: "application/json", language: "en" },
    ]);
    expect(item.podcast!.chapters).toEqual({ url: `${env.BASE_URL}/v1/podcasts/chapters/${article.slug}.json`, type: "application/json+chapters" });
  });

  it("an item whose Opus size is unknown (rendered before Opus came with the MP3) lists no alternate enclosure", async () => {
    await readyArticle({ title: "Older" }, { opusBytes: null });
    const { feed, problems } = validatePodcastFeed(await (await call("/v1/podcasts/service.xml")).text(), { locked: false });
    expect(problems).toEqual([]);
    expect(feed!.items![0].podcast!.alternateEnclosures).toBeUndefined();
  });

  it("itunes:image is square topic art the service serves, within Apple's 1400 to 3000 px", async () => {
    const { feed } = validatePodcastFeed(await (await call("/v1/podcasts/service-science.xml")).text(), { locked: false });
    const art = await call(feed!.itunes!.image!);
    expect(art.status).toBe(200);
    expect(art.headers.get("content-type")).toBe("image/png");
    // PNG IHDR: width and height are the big-endian words at bytes 16 and 20.
    const ihdr = new DataView(await art.arrayBuffer());
    const [width, height] = [ihdr.getUint32(16), ihdr.getUint32(20)];
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(1400);
    expect(width).toBeLessThanOrEqual(3000);
  });

  it("writes text with markup characters without stray whitespace, and itunes:explicit as true/false", async () => {
    await readyArticle({ title: "Rates & <risks>" });
    const xml = await (await call("/v1/podcasts/service.xml")).text();
    expect(xml).toContain("<title><![CDATA[Rates & <risks>]]></title>");
    expect(xml).not.toMatch(/<itunes:explicit>(yes|no)</);
    expect(validatePodcastFeed(xml, { locked: false }).feed!.items![0].title).toBe("Rates & <risks>");
  });

  it("lists the trending top set newest first, so the body only changes when the set does", async () => {
    const old = await readyArticle({ title: "Older but played", createdAt: new Date(Date.now() - 3 * 3_600_000) });
    await readyArticle({ title: "Newest", createdAt: new Date(Date.now() - 60_000) });
    await addPlays(old.id, 10); // ranks it first: (1 + 20) / 5² > 1 / 2²
    expect(await titles("/v1/podcasts/service.xml")).toEqual(["Newest", "Older but played"]);
  });

  it("keeps an episode's guid when its audio is re-rendered", async () => {
    const article = await readyArticle({ title: "Stable" });
    const guidOf = async () => validatePodcastFeed(await (await call("/v1/podcasts/service.xml")).text(), { locked: false }).feed!.items![0].guid;
    const before = await guidOf();
    // A re-render stores its audio under a new cache key and points the article at it.
    const key = await sha256Hex(`re-render-of-${article.slug}`);
    const db = database(env);
    await db.insert(audioObjects).values({ key, provider: "test", voice: "other-voice", durationSeconds: 70, mp3Bytes: 9999 });
    await db.update(articles).set({ audioKey: key }).where(eq(articles.id, article.id));
    await forgetEdgeCache(["/v1/podcasts/service.xml"]);
    expect(await guidOf()).toEqual(before);
  });
});
