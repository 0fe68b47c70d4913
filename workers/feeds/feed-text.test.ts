import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { forgetEdgeCache, readyArticle } from "../../test/support/feeds";

const FEED = "/v1/podcasts/service.xml";

beforeEach(() => forgetEdgeCache([FEED]));

describe("feeds built from stored text (issue 16, item 1)", () => {
  it("stay well-formed XML 1.0 when an article's text holds characters XML forbids", async () => {
    // Stored before input checks existed, or forwarded by e-mail: the feed must not carry it raw.
    await readyArticle({ title: "Tide\u0000 tables\u0001", summary: "Low\u000b water\u001f at noon." });
    const xml = await (await call(FEED)).text();
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const { feed, problems } = validatePodcastFeed(xml, { locked: false, checkArtworkSize: true });
    expect(problems).toEqual([]);
    expect(feed!.items!.map((i) => i.title)).toEqual(["Tide tables"]);
  });
});
