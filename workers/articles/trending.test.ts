import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addArticle, addListener, addPlays, HOUR } from "../../test/support/articles";
import { trendingArticles } from "../kernel/trending";

const ago = (ms: number) => new Date(Date.now() - ms);

describe("trendingArticles", () => {
  it("ranks by recent plays over recency and ignores plays older than the window", async () => {
    const old = await addArticle({ createdAt: ago(48 * HOUR) });
    const fresh = await addArticle({ createdAt: ago(1 * HOUR) });
    const stale = await addArticle({ createdAt: ago(47 * HOUR) });
    // (1 + 2*200) / 50² = 0.16 beats the fresh article's 1 / 3² = 0.11.
    await addPlays(old.id, 200, ago(HOUR));
    await addPlays(stale.id, 500, ago(8 * 24 * HOUR));
    const ranked = await trendingArticles(env, { limit: 10 });
    expect(ranked.map((a) => a.slug)).toEqual([old.slug, fresh.slug, stale.slug]);
    expect(ranked[0].score).toBeCloseTo(401 / (50 * 50), 3);
  });

  it("finds every candidate with offset, vertical and audio filters", async () => {
    for (let i = 0; i < 5; i++) await addArticle({ createdAt: ago((10 - i) * HOUR), audioKey: i % 2 ? "k" : null });
    const other = await addArticle({ vertical: "finance", audioKey: "k" });
    const page = await trendingArticles(env, { limit: 2, offset: 1 });
    expect(page).toHaveLength(2);
    const ready = await trendingArticles(env, { limit: 10, audioReadyOnly: true });
    expect(ready.every((a) => a.audioKey === "k")).toBe(true);
    expect(ready).toHaveLength(3);
    const finance = await trendingArticles(env, { limit: 10, vertical: "finance" });
    expect(finance.map((a) => a.id)).toEqual([other.id]);
  });

  it("never lists a listener_private article publicly, only to its owner", async () => {
    const { listener } = await addListener();
    const mine = await addArticle({ visibility: "listener_private", ownerListenerId: listener.id });
    await addPlays(mine.id, 50);
    const stub = await addArticle({ visibility: "publisher_only" });
    const publicList = await trendingArticles(env, { limit: 10 });
    expect(publicList.map((a) => a.id)).toEqual([stub.id]);
    const own = await trendingArticles(env, { limit: 10, listenerId: listener.id });
    expect(own.map((a) => a.id)).toContain(mine.id);
  });
});
