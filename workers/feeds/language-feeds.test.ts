import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { forgetEdgeCache, PUBLIC_FEED_PATHS, readyArticle } from "../../test/support/feeds";
import { validatePodcastFeed } from "../../test/support/podcast-validator";

// ../shared/DESIGN.md "Contracts added in turn 4", Languages: one channel, one language.

const LANGUAGE_PATHS = ["/v1/podcasts/service.xml?language=de", "/v1/podcasts/service-news.xml?language=de", "/v1/podcasts/service.xml?language=pt"];

beforeEach(() => forgetEdgeCache([...PUBLIC_FEED_PATHS, ...LANGUAGE_PATHS]));

/** The feed at `path` as the Podcast Index reads it (podcast-partytime), checked by the validator. */
async function read(path: string) {
  const res = await call(path);
  expect(res.status, path).toBe(200);
  const xml = await res.text();
  const { feed, problems } = validatePodcastFeed(xml, { locked: false, checkArtworkSize: true });
  expect(problems, path).toEqual([]);
  return { feed: feed!, xml, titles: (feed?.items ?? []).map((i) => i.title) };
}

describe("feeds by language", () => {
  it("service.xml?language=de carries only German items, its channel <language> de, their transcripts de", async () => {
    await readyArticle({ title: "Die Brücke", vertical: "news", language: "de", languageSource: "given" });
    await readyArticle({ title: "The bridge", vertical: "news" });
    const { feed, xml, titles } = await read("/v1/podcasts/service.xml?language=de");
    expect(feed.language).toBe("de");
    expect(titles).toEqual(["Die Brücke"]);
    expect([...xml.matchAll(/<podcast:transcript [^>]*language="([^"]+)"/g)].map((m) => m[1])).toEqual(["de", "de"]);
    expect(xml).toContain("/v1/podcasts/service.xml?language=de");

    // The feed of every language is as it was: <language> en, both items.
    const all = await read("/v1/podcasts/service.xml");
    expect(all.feed.language).toBe("en");
    expect(all.titles.sort()).toEqual(["Die Brücke", "The bridge"]);
  });

  it("a topic feed by language, and a language without a region lists its regions", async () => {
    await readyArticle({ title: "Nachrichten", vertical: "news", language: "de" });
    await readyArticle({ title: "Technik", vertical: "tech", language: "de" });
    await readyArticle({ title: "Notícias", vertical: "news", language: "pt-BR" });
    expect((await read("/v1/podcasts/service-news.xml?language=de")).titles).toEqual(["Nachrichten"]);
    const portuguese = await read("/v1/podcasts/service.xml?language=pt");
    expect(portuguese.feed.language).toBe("pt");
    expect(portuguese.titles).toEqual(["Notícias"]);
  });

  it("422 for a language that is not a BCP 47 tag", async () => {
    expect((await call("/v1/podcasts/service.xml?language=not%20a%20tag")).status).toBe(422);
  });
});
