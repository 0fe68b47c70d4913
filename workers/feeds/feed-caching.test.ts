import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call } from "../../test/support/client";
import { snapshotPath } from "./public-feed";
import { forgetEdgeCache, PUBLIC_FEED_PATHS, readyArticle } from "../../test/support/feeds";

const FEED = "/v1/podcasts/service.xml";

beforeEach(() => forgetEdgeCache(PUBLIC_FEED_PATHS));
afterEach(() => vi.useRealTimers());

/** Makes every feed build fail the way a D1 outage would: the articles table is gone. */
async function breakArchive() {
  await env.DB.prepare("ALTER TABLE articles RENAME TO articles_away").run();
}

describe("conditional requests (RFC 9110 §13)", () => {
  it("answers If-None-Match with 304 and the validators, and a changed ETag with 200", async () => {
    await readyArticle({ title: "One" });
    const first = await call(FEED);
    const etag = first.headers.get("etag")!;
    const lastModified = first.headers.get("last-modified")!;
    expect(first.headers.get("cache-control")).toBe("public, max-age=300");
    expect(new Date(lastModified).getTime()).not.toBeNaN();

    const again = await call(FEED, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("last-modified")).toBe(lastModified);
    expect(await again.text()).toBe("");

    expect((await call(FEED, { headers: { "If-None-Match": `"other", W/${etag}` } })).status).toBe(304);
    expect((await call(FEED, { headers: { "If-None-Match": '"other"' } })).status).toBe(200);
    expect((await call(FEED, { method: "HEAD", headers: { "If-None-Match": etag } })).status).toBe(304);
  });

  it("answers If-Modified-Since with 304 unless the feed changed later; If-None-Match wins over it", async () => {
    await readyArticle({ title: "One" });
    const first = await call(FEED);
    const lastModified = first.headers.get("last-modified")!;
    expect((await call(FEED, { headers: { "If-Modified-Since": lastModified } })).status).toBe(304);
    const before = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await call(FEED, { headers: { "If-Modified-Since": before } })).status).toBe(200);
    expect((await call(FEED, { headers: { "If-Modified-Since": lastModified, "If-None-Match": '"other"' } })).status).toBe(200);
  });

  it("keeps Last-Modified when a rebuild gives the same bytes, and moves it when they change", async () => {
    // Last-Modified counts whole seconds: the clock moves on two of them instead of the test waiting.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await readyArticle({ title: "One" });
    const first = await call(FEED);
    await forgetEdgeCache([FEED]);
    const same = await call(FEED);
    expect(same.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(same.headers.get("last-modified")).toBe(first.headers.get("last-modified"));

    vi.advanceTimersByTime(2_000);
    await readyArticle({ title: "Two" });
    await forgetEdgeCache([FEED]);
    const changed = await call(FEED);
    expect(changed.headers.get("etag")).not.toBe(first.headers.get("etag"));
    expect(Date.parse(changed.headers.get("last-modified")!)).toBeGreaterThan(Date.parse(first.headers.get("last-modified")!));
  });
});

describe("edge cache and the last good body (docs/rules.md 4, Feed build failure)", () => {
  it("serves a public feed from the edge cache until its TTL, without rebuilding", async () => {
    await readyArticle({ title: "Cached" });
    const first = await (await call(FEED)).text();
    await readyArticle({ title: "Newer" });
    expect(await (await call(FEED)).text()).toBe(first);
    await forgetEdgeCache([FEED]);
    expect(await (await call(FEED)).text()).toContain("Newer");
  });

  it("keeps the last good body in R2 and serves it when a build fails, however old", async () => {
    await readyArticle({ title: "Last good" });
    const good = await call(FEED);
    const body = await good.text();
    const stored = await env.AUDIO.get(snapshotPath("trending"));
    expect(await stored!.text()).toBe(body);

    await breakArchive();
    await forgetEdgeCache([FEED]);
    const stale = await call(FEED);
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(body);
    expect(stale.headers.get("etag")).toBe(good.headers.get("etag"));
    expect(stale.headers.get("cache-control")).toBe("public, max-age=60");
    expect((await call(FEED, { headers: { "If-None-Match": good.headers.get("etag")! } })).status).toBe(304);
  });

  it("answers 503 with Retry-After when a build fails and no body was ever kept", async () => {
    await breakArchive();
    for (const path of [FEED, "/v1/podcasts/service-tech.xml", "/v1/podcasts/service-declassified.xml"]) {
      const res = await call(path);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("retry-after")).toBe("60");
      expect(((await res.json()) as { code: string }).code).toBe("unavailable");
    }
  });

  it("a creator feed whose creator lookup fails falls back to its last good body too", async () => {
    await env.DB.prepare("INSERT INTO creators (slug, name) VALUES ('ada', 'Ada')").run();
    const path = "/v1/podcasts/creator/ada.xml";
    await forgetEdgeCache([path]);
    const good = await (await call(path)).text();
    await env.DB.prepare("ALTER TABLE creators RENAME TO creators_away").run();
    await forgetEdgeCache([path]);
    const stale = await call(path);
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(good);
  });
});
