import { generateRssFeed } from "feedsmith";
import { describe, expect, it } from "vitest";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { podcastGuid } from "./rss";

const AI_CONTENT = { display: "true", purpose: "ai-content" };
/** What a narrated item carries besides its enclosure: both transcripts, chapters and the AI-content podcast:txt. */
const NARRATED = {
  transcripts: [
    { url: "https://example.test/ep.vtt", type: "text/vtt" },
    { url: "https://example.test/ep.json", type: "application/json" },
  ],
  chapters: { url: "https://example.test/ep.chapters.json", type: "application/json+chapters" },
  txts: [AI_CONTENT],
};

/** The smallest feed that passes, as feedsmith writes it; each test breaks one rule. */
function feedXml(over: { channel?: Record<string, unknown>; item?: Record<string, unknown> } = {}): string {
  const self = "https://feeds.example/show.xml";
  return generateRssFeed({
    title: "Show",
    link: "https://example.test",
    description: "About the show",
    language: "en",
    atom: { links: [{ href: self, rel: "self", type: "application/rss+xml" }] },
    itunes: { author: "Someone", image: "https://example.test/art.png?w=1400&h=1400", categories: [{ text: "News", categories: [{ text: "Daily News" }] }] },
    podcast: { guid: podcastGuid(self), locked: { value: false, owner: "owner@example.test" }, txts: [AI_CONTENT] },
    items: [
      {
        title: "Episode",
        description: "What happens",
        guid: { value: "ep-1", isPermaLink: false },
        pubDate: new Date("2026-11-20T10:00:00Z"),
        enclosures: [{ url: "https://example.test/ep.mp3", length: 1234, type: "audio/mpeg" }],
        itunes: { duration: 60 },
        podcast: NARRATED,
        ...over.item,
      },
    ],
    ...over.channel,
  })
    .replace(/<itunes:explicit>no<\/itunes:explicit>/g, "<itunes:explicit>false</itunes:explicit>")
    .replace(AI_TXT, AI_TXT_AS_REFERENCE);
}

/** podcast:txt as feedsmith writes it, and with its text as a character reference (workers/feeds/rss.ts says why). */
const AI_TXT = '<podcast:txt purpose="ai-content">true</podcast:txt>';
const AI_TXT_AS_REFERENCE = '<podcast:txt purpose="ai-content">&#116;rue</podcast:txt>';

function problems(xml: string, locked = false) {
  return validatePodcastFeed(xml, { locked, checkArtworkSize: true }).problems;
}

describe("podcast feed validator: each rule catches its violation", () => {
  it("accepts a compliant feed, and reports a missing itunes:author", () => {
    expect(problems(feedXml({ channel: { itunes: undefined } }))).toContain("itunes:author missing");
    const ok = feedXml().replace("<itunes:author>", "<itunes:explicit>false</itunes:explicit><itunes:author>");
    expect(problems(ok)).toEqual([]);
  });

  it("Apple: itunes:explicit must be true/false (feedsmith's yes/no is rejected)", () => {
    const yesNo = feedXml().replace("<itunes:author>", "<itunes:explicit>no</itunes:explicit><itunes:author>");
    expect(problems(yesNo)).toContain('channel itunes:explicit is "no", not true or false');
  });

  const withExplicit = (xml: string) => xml.replace("<itunes:author>", "<itunes:explicit>false</itunes:explicit><itunes:author>");

  it("Apple: enclosure type audio/mpeg with a positive length, one per item", () => {
    const xml = withExplicit(feedXml({ item: { enclosures: [{ url: "https://example.test/ep.ogg", length: 0, type: "audio/ogg" }] } }));
    expect(problems(xml)).toEqual([
      "item 1 (Episode): enclosure length is not a positive byte count",
      "item 1 (Episode): enclosure type audio/ogg, expected audio/mpeg",
    ]);
  });

  it("Apple: artwork is square and 1400 to 3000 px; the category is one of Apple's", () => {
    const xml = withExplicit(
      feedXml({ channel: { itunes: { author: "A", image: "https://example.test/a.png?w=600&h=600", categories: [{ text: "Gossip" }] } } }),
    );
    expect(problems(xml)).toEqual(
      expect.arrayContaining(['itunes:category "Gossip" is not an Apple category', "itunes:image is 600px; Apple requires 1400 to 3000"]),
    );
  });

  it("Podcasting 2.0: podcast:guid is UUIDv5 of the feed URL; podcast:locked matches the feed's kind", () => {
    const xml = withExplicit(feedXml({ channel: { podcast: { guid: podcastGuid("https://elsewhere/x.xml"), locked: { value: false }, txts: [AI_CONTENT] } } }));
    expect(problems(xml)).toContain("podcast:guid is not UUIDv5 of the feed URL");
    expect(problems(withExplicit(feedXml()), true)).toContain('podcast:locked is "no", expected yes');
  });

  it("podcast-partytime: podcast:locked without its owner e-mail is not read at all", () => {
    const xml = withExplicit(
      feedXml({ channel: { podcast: { guid: podcastGuid("https://feeds.example/show.xml"), locked: { value: true }, txts: [AI_CONTENT] } } }),
    );
    expect(problems(xml, true)).toEqual([
      "podcast-partytime reads podcast:locked as undefined, expected true",
      "podcast-partytime reads no podcast:locked owner",
    ]);
  });

  it("Podcasting 2.0: an alternate enclosure needs its byte length, or podcast-partytime drops it", () => {
    const opus = { type: "audio/ogg", sources: [{ uri: "https://example.test/ep.opus" }] };
    const item = (alt: Record<string, unknown>) => ({
      enclosures: [{ url: "https://example.test/ep.mp3", length: 1234, type: "audio/mpeg" }],
      podcast: { ...NARRATED, alternateEnclosures: [alt] },
    });
    expect(problems(withExplicit(feedXml({ item: item({ ...opus, length: 900 }) })))).toEqual([]);
    expect(problems(withExplicit(feedXml({ item: item(opus) })))).toEqual([
      "item 1 (Episode): podcast:alternateEnclosure length is not a positive byte count",
      "item 1 (Episode): podcast-partytime reads 0 of 1 podcast:alternateEnclosure",
    ]);
  });

  it("items: duplicate guids, bad transcripts, missing duration and pubDate are reported", () => {
    const transcripts = [...NARRATED.transcripts, { url: "x", type: "text/markdown" }];
    const xml = withExplicit(feedXml({ item: { pubDate: undefined, itunes: {}, podcast: { ...NARRATED, transcripts } } }));
    expect(problems(xml)).toEqual([
      "item 1 (Episode): pubDate missing or not RFC 2822",
      "item 1 (Episode): itunes:duration missing or not whole seconds",
      "item 1 (Episode): podcast:transcript url is not a URL",
      "item 1 (Episode): podcast:transcript type text/markdown is not allowed",
    ]);
    const twice = withExplicit(feedXml()).replace(/(<item>[\s\S]*<\/item>)/, "$1$1");
    expect(problems(twice)).toEqual(["item guids are not unique"]);
  });

  it("narrated items: a WebVTT and a JSON transcript and JSON chapters, read by both parsers; the channel and each item say their voices are AI (podcast:txt)", () => {
    const vttOnly = withExplicit(feedXml({ item: { podcast: { ...NARRATED, transcripts: [NARRATED.transcripts[0]] } } }));
    expect(problems(vttOnly)).toEqual([
      "item 1 (Episode): no podcast:transcript of type application/json",
      "item 1 (Episode): podcast-partytime reads no application/json podcast:transcript",
    ]);
    const noChapters = withExplicit(feedXml({ item: { podcast: { transcripts: NARRATED.transcripts, txts: NARRATED.txts } } }));
    expect(problems(noChapters)).toEqual(["item 1 (Episode): podcast:chapters missing", "item 1 (Episode): podcast-partytime reads no podcast:chapters"]);
    const plainJsonChapters = withExplicit(feedXml({ item: { podcast: { ...NARRATED, chapters: { url: NARRATED.chapters.url, type: "application/json" } } } }));
    expect(problems(plainJsonChapters)).toEqual([
      "item 1 (Episode): podcast:chapters type application/json, expected application/json+chapters",
      "item 1 (Episode): podcast-partytime reads no podcast:chapters",
    ]);
    const noTxt = withExplicit(
      feedXml({ channel: { podcast: { guid: podcastGuid("https://feeds.example/show.xml"), locked: { value: false, owner: "owner@example.test" } } } }),
    );
    expect(problems(noTxt)).toEqual(['podcast:txt purpose="ai-content" true missing', 'podcast-partytime reads no podcast:txt purpose="ai-content" true']);
    // The text "true" as it stands is lost to podcast-partytime 5, which coerces it to a boolean and drops it.
    expect(problems(withExplicit(feedXml()).replace(AI_TXT_AS_REFERENCE, AI_TXT))).toEqual([
      'podcast-partytime reads no podcast:txt purpose="ai-content" true',
    ]);
    // Each episode says it too: an item is often read without its channel.
    const noItemTxt = withExplicit(feedXml({ item: { podcast: { transcripts: NARRATED.transcripts, chapters: NARRATED.chapters } } }));
    expect(problems(noItemTxt)).toEqual(['item 1 (Episode): podcast:txt purpose="ai-content" true missing']);
    // podcast:txt without the purpose says nothing about AI.
    const otherTxt = noTxt.replace("</podcast:guid>", "</podcast:guid><podcast:txt>true</podcast:txt>");
    expect(problems(otherTxt)).toEqual(['podcast:txt purpose="ai-content" true missing', 'podcast-partytime reads no podcast:txt purpose="ai-content" true']);
  });

  it("something that is not RSS is reported, not thrown", () => {
    expect(problems("<html></html>")[0]).toMatch(/^not a parseable RSS feed/);
  });
});

describe("podcast:guid", () => {
  it("matches the Podcasting 2.0 specification's example", () => {
    // https://podcastindex.org/namespace/1.0#guid: mp3s.nashownotes.com/pc20rss.xml
    expect(podcastGuid("https://mp3s.nashownotes.com/pc20rss.xml/")).toBe("917393e3-1b1e-5cef-ace4-edaa54e1f810");
    expect(podcastGuid("http://mp3s.nashownotes.com/pc20rss.xml")).toBe("917393e3-1b1e-5cef-ace4-edaa54e1f810");
  });
});
