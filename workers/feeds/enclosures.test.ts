import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { feedListener, forgetEdgeCache, readyArticle } from "../../test/support/feeds";

/**
 * A podcast client downloads every enclosure: Apple Podcasts first asks for `Range: bytes=0-1`
 * and needs a 206, then HEAD and further ranges; the byte length in the feed must be exact.
 */
async function checkEnclosures(xml: string, locked: boolean) {
  const { feed, problems } = validatePodcastFeed(xml, { locked });
  expect(problems).toEqual([]);
  expect(feed!.items!.length).toBeGreaterThan(0);
  for (const item of feed!.items!) {
    const { url, length } = item.enclosures![0];
    const first = await call(url!, { headers: { Range: "bytes=0-1" } });
    expect(first.status, url).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-1/${length}`);
    expect((await first.arrayBuffer()).byteLength).toBe(2);
    const head = await call(url!, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(length));
    expect(head.headers.get("content-type")).toBe("audio/mpeg");
    const whole = await call(url!);
    expect((await whole.arrayBuffer()).byteLength).toBe(length);
  }
}

describe("enclosures can be downloaded with byte ranges", () => {
  it("in a public feed", async () => {
    await forgetEdgeCache(["/v1/podcasts/service.xml"]);
    await readyArticle({ title: "Small" }, { size: 1500 });
    await readyArticle({ title: "Larger" }, { size: 70_001 });
    await checkEnclosures(await (await call("/v1/podcasts/service.xml")).text(), false);
  });

  it("in a private feed, forwarded articles included", async () => {
    const { listener, feedToken } = await feedListener(["tech"]);
    await readyArticle({ title: "Forwarded", visibility: "listener_private", ownerListenerId: listener.id }, { size: 3333 });
    await checkEnclosures(await (await call(`/v1/podcasts/u/${feedToken}.xml`)).text(), true);
  });
});
