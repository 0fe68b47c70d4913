import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  articlePageUrl,
  audioUrl,
  creatorClaimUrl,
  creatorFeedPath,
  creatorFeedUrl,
  itemFileUrls,
  podcastApps,
  privateFeedPath,
  privateFeedUrl,
  serviceFeedPath,
  topicArtUrl,
  topicPageUrl,
} from "./public-urls";

/**
 * The public URLs are stable forever (docs/rules.md "Rules" 4): podcast apps poll feed URLs for years and
 * episodes keep their enclosure URLs, so each format is written out here, not derived from the code.
 */
describe("public URLs", () => {
  it("name a public audio file by its key and encoding", () => {
    expect(audioUrl(env, "k1", "mp3", "public")).toBe("https://api.test/v1/audio/k1.mp3");
    expect(audioUrl(env, "k1", "opus", "public")).toBe("https://api.test/v1/audio/k1.opus");
    expect(audioUrl(env, "k1", "wav", "public")).toBe("https://api.test/v1/audio/k1.wav");
  });

  it("name a private feed by its token, escaped", () => {
    expect(privateFeedPath("ab/c")).toBe("/v1/podcasts/u/ab%2Fc.xml");
    expect(privateFeedUrl(env, "tok")).toBe("https://api.test/v1/podcasts/u/tok.xml");
  });

  it("name a service feed by its vertical or host", () => {
    expect(serviceFeedPath("tech")).toBe("/v1/podcasts/service-tech.xml");
  });

  it("name a creator's feed and claim address by the tenant's slug, escaped", () => {
    expect(creatorFeedPath("a b")).toBe("/v1/podcasts/creator/a%20b.xml");
    expect(creatorFeedUrl(env, "ada")).toBe("https://api.test/v1/podcasts/creator/ada.xml");
    expect(creatorClaimUrl(env, "ada")).toBe("https://api.test/v1/creators/ada/claim");
  });

  it("name an item's transcripts and chapters, public or behind the private feed token", () => {
    expect(itemFileUrls(env, "a b")).toEqual({
      vtt: "https://api.test/v1/podcasts/transcripts/a%20b.vtt",
      json: "https://api.test/v1/podcasts/transcripts/a%20b.json",
      chapters: "https://api.test/v1/podcasts/chapters/a%20b.json",
    });
    expect(itemFileUrls(env, "s", "t/k")).toEqual({
      vtt: "https://api.test/v1/podcasts/u/t%2Fk/transcripts/s.vtt",
      json: "https://api.test/v1/podcasts/u/t%2Fk/transcripts/s.json",
      chapters: "https://api.test/v1/podcasts/u/t%2Fk/chapters/s.json",
    });
  });

  it("name topic art by its prompt, size and title", () => {
    expect(topicArtUrl(env, "tech stories", 1400, 1400, "Tech & AI")).toBe("https://api.test/v1/topic-art?prompt=tech+stories&w=1400&h=1400&title=Tech+%26+AI");
  });

  it("name an article's page on the web front-end", () => {
    expect(articlePageUrl(env, "a b")).toBe("https://web.test/articles/a%20b");
  });

  it("name a topic's page on the web front-end", () => {
    expect(topicPageUrl(env, "young_moms")).toBe("https://web.test/topics/young_moms");
  });

  it("subscribe each podcast app to a feed by its own scheme, never by an https page of the app's maker", () => {
    const feed = "https://api.test/v1/podcasts/u/T0k-en_.xml";
    expect(podcastApps(feed)).toEqual([
      { name: "Apple Podcasts", href: "podcast://api.test/v1/podcasts/u/T0k-en_.xml" },
      { name: "Overcast", href: "overcast://x-callback-url/add?url=https%3A%2F%2Fapi.test%2Fv1%2Fpodcasts%2Fu%2FT0k-en_.xml" },
      { name: "Pocket Casts", href: "pktc://subscribe/api.test/v1/podcasts/u/T0k-en_.xml" },
      { name: "Castro", href: "castro://subscribe/api.test/v1/podcasts/u/T0k-en_.xml" },
      { name: "AntennaPod", href: "antennapod-subscribe://api.test/v1/podcasts/u/T0k-en_.xml" },
      { name: "Podcast Addict", href: "podcastaddict://api.test/v1/podcasts/u/T0k-en_.xml" },
      { name: "Other app", href: "feed://api.test/v1/podcasts/u/T0k-en_.xml" },
    ]);
  });
});
