import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { sha256Hex } from "../core/crypto";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { podcastGuid } from "./rss";
import { feedListener, readyArticle } from "../../test/support/feeds";

async function privateFeed(path: string) {
  const res = await call(path);
  expect(res.status, path).toBe(200);
  const { feed, problems } = validatePodcastFeed(await res.text(), { locked: true, checkArtworkSize: true });
  expect(problems).toEqual([]);
  return { res, feed: feed!, titles: (feed!.items ?? []).map((i) => i.title) };
}

describe("private per-listener feed (docs/rules.md 4; part 2, listener_private)", () => {
  it("carries the listener's verticals and their own forwarded articles, locked, at both paths", async () => {
    const { listener, feedToken } = await feedListener(["tech"]);
    await readyArticle({ title: "Tech public", vertical: "tech" });
    await readyArticle({ title: "Sports public", vertical: "sports" });
    await readyArticle({ title: "My forward", vertical: "culture", visibility: "listener_private", ownerListenerId: listener.id });
    const u = await privateFeed(`/v1/podcasts/u/${feedToken}.xml`);
    expect(u.titles.sort()).toEqual(["My forward", "Tech public"]);
    expect(u.feed.podcast!.guid).toBe(podcastGuid(`${env.BASE_URL}/v1/podcasts/u/${feedToken}.xml`));

    const bare = await privateFeed(`/v1/podcasts/${feedToken}.xml`);
    expect(await bare.res.headers.get("etag")).toBe(u.res.headers.get("etag"));
  });

  it("never carries another listener's private article", async () => {
    const alice = await feedListener(["tech"]);
    const bob = await feedListener([]);
    await readyArticle({ title: "Alice forward", vertical: "tech", visibility: "listener_private", ownerListenerId: alice.listener.id });
    await readyArticle({ title: "Bob forward", vertical: "tech", visibility: "listener_private", ownerListenerId: bob.listener.id });
    expect((await privateFeed(`/v1/podcasts/u/${alice.feedToken}.xml`)).titles).toEqual(["Alice forward"]);
    expect((await privateFeed(`/v1/podcasts/u/${bob.feedToken}.xml`)).titles).toEqual(["Bob forward"]);
  });

  it("items use token-scoped transcripts that serve the forwarded article only to its owner", async () => {
    const alice = await feedListener([]);
    const bob = await feedListener([]);
    const mine = await readyArticle({ title: "Alice forward", visibility: "listener_private", ownerListenerId: alice.listener.id });
    const { feed } = await privateFeed(`/v1/podcasts/u/${alice.feedToken}.xml`);
    const url = feed.items![0].podcast!.transcripts![0].url!;
    expect(url).toBe(`${env.BASE_URL}/v1/podcasts/u/${alice.feedToken}/transcripts/${mine.slug}.vtt`);
    const res = await call(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(await res.text()).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> /);
    expect((await call(`/v1/podcasts/u/${bob.feedToken}/transcripts/${mine.slug}.vtt`)).status).toBe(404);
    expect((await call(`/v1/podcasts/transcripts/${mine.slug}.vtt`)).status).toBe(404);
    // The JSON transcript and the chapters stay behind the token in the same way.
    const item = feed.items![0].podcast!;
    const json = item.transcripts!.find((t) => t.type === "application/json")!.url!;
    expect(json).toBe(`${env.BASE_URL}/v1/podcasts/u/${alice.feedToken}/transcripts/${mine.slug}.json`);
    expect(item.chapters!.url).toBe(`${env.BASE_URL}/v1/podcasts/u/${alice.feedToken}/chapters/${mine.slug}.json`);
    for (const [path, kind] of [
      [json, "transcripts"],
      [item.chapters!.url!, "chapters"],
    ] as const) {
      const own = await call(path);
      expect(own.status, path).toBe(200);
      expect(own.headers.get("cache-control")).toBe("private, no-cache");
      expect(own.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      expect(own.headers.get("referrer-policy")).toBe("no-referrer");
      expect((await call(`/v1/podcasts/u/${bob.feedToken}/${kind}/${mine.slug}.json`)).status).toBe(404);
      expect((await call(`/v1/podcasts/${kind}/${mine.slug}.json`)).status).toBe(404);
    }
  });

  it("is private to the token: no shared caching, no indexing", async () => {
    const { feedToken } = await feedListener();
    const res = await call(`/v1/podcasts/u/${feedToken}.xml`);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(await caches.default.match(new Request(`${env.BASE_URL}/v1/podcasts/u/${feedToken}.xml`))).toBeUndefined();
  });

  it("answers HEAD and conditional GETs", async () => {
    const { feedToken } = await feedListener();
    await readyArticle({ title: "Any" });
    const path = `/v1/podcasts/u/${feedToken}.xml`;
    const first = await call(path);
    const head = await call(path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await head.text()).toBe("");
    const again = await call(path, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("private, no-cache");
    expect((await call(path, { headers: { "If-Modified-Since": first.headers.get("last-modified")! } })).status).toBe(304);
  });

  it("answers 404 for an unknown token, a rotated-away token and a deleted listener, at both paths", async () => {
    const rotated = await feedListener();
    const deleted = await feedListener();
    await env.DB.prepare("UPDATE listeners SET private_feed_token_hash = ? WHERE id = ?")
      .bind(await sha256Hex("new"), rotated.listener.id)
      .run();
    await env.DB.prepare("DELETE FROM listeners WHERE id = ?").bind(deleted.listener.id).run();
    for (const token of ["no-such-token", rotated.feedToken, deleted.feedToken]) {
      for (const path of [`/v1/podcasts/u/${token}.xml`, `/v1/podcasts/${token}.xml`]) {
        expect((await call(path)).status, path).toBe(404);
        expect((await call(path, { method: "HEAD" })).status, path).toBe(404);
      }
    }
  });

  it("is not reachable with the account token (the feed URL carries only the feed token)", async () => {
    const { accountToken } = await feedListener();
    expect((await call(`/v1/podcasts/u/${accountToken}.xml`)).status).toBe(404);
    expect((await call(`/v1/podcasts/${accountToken}.xml`)).status).toBe(404);
  });

  it("follows the listener lifecycle end to end: subscribe, rotate (old URL 404 at once), delete (404)", async () => {
    const sub = await call("/v1/listeners/subscribe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "feeds-e2e@example.test", verticals: ["tech"] }),
    });
    expect(sub.status).toBe(201);
    const { token, feed_url } = (await sub.json()) as { token: string; feed_url: string };
    expect((await call(feed_url)).status).toBe(200);

    const rotated = await call(`/v1/listeners/${token}/rotate`, { method: "POST" });
    expect(rotated.status).toBe(200);
    const fresh = (await rotated.json()) as { token: string; feed_url: string };
    expect((await call(feed_url)).status).toBe(404);
    expect((await call(feed_url.replace("/u/", "/"))).status).toBe(404);
    expect((await call(fresh.feed_url)).status).toBe(200);

    expect((await call(`/v1/listeners/${fresh.token}`, { method: "DELETE" })).status).toBe(200);
    expect((await call(fresh.feed_url)).status).toBe(404);
  });

  it("answers 503 with Retry-After when the feed cannot be built", async () => {
    const { feedToken } = await feedListener();
    await env.DB.prepare("ALTER TABLE articles RENAME TO articles_away").run();
    const res = await call(`/v1/podcasts/u/${feedToken}.xml`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
  });
});
