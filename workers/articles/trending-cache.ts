import { config } from "../core/config";
import { TtlCache, type CacheSettings } from "../core/ttl-cache";
import { trendingArticles, type TrendingArticle, type TrendingOptions } from "../kernel/trending";

const cache = new TtlCache<TrendingArticle[]>();

/** The trending cache's live TTL and capacity. */
function trendingCacheSettings(env: object): CacheSettings {
  const c = config(env);
  return { ttlSeconds: c.TRENDING_CACHE_TTL_SECONDS, capacity: c.TRENDING_CACHE_CAPACITY };
}

/** Counters for GET /v1/admin/trending-cache/stats. */
export function trendingCacheStats(env: object) {
  return cache.stats(trendingCacheSettings(env));
}

/** Drops every cached ranking (the test setup, whose storage reset removes the articles they rank). */
export function forgetTrending(): void {
  cache.clear();
}

/**
 * trendingArticles behind the in-isolate cache, keyed by every option. Feeds rebuilt on every
 * podcast-app poll ask the same question many times a minute; `bypass` skips the cache.
 */
export async function cachedTrending(env: Pick<Env, "DB"> & object, opts: TrendingOptions, bypass = false): Promise<TrendingArticle[]> {
  const settings = trendingCacheSettings(env);
  const key = JSON.stringify([
    opts.limit,
    opts.offset ?? 0,
    opts.vertical ?? "",
    opts.listenerId ?? null,
    !!opts.audioReadyOnly,
    !!opts.curatedOnly,
    !!opts.excludeStubs,
    opts.language ?? "",
  ]);
  if (!bypass) {
    const hit = cache.get(key, settings);
    if (hit) return hit;
  }
  const fresh = await trendingArticles(env, opts);
  cache.set(key, fresh, settings);
  return fresh;
}
