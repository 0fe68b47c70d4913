import * as v from "valibot";
import { config } from "../core/config";
import { named } from "../core/schema-registry";
import { database } from "../db";
import { fetchNews, newsConfigured } from "./news";
import { ArticleSummary, presentSummary } from "./present";
import { indexQuery, searchArticles } from "./search-index";
import { TtlCache, type CacheSettings } from "../core/ttl-cache";

/** Fewer local results than this, with expand on, asks external news (docs/rules.md "Rules" 4, search rule 1). */
const EXPAND_BELOW = 5;
const SUGGESTION_LIMIT = 10;

export const SearchResponse = named(
  "SearchResponse",
  v.object({
    query: v.string(),
    vertical: v.nullable(v.string()),
    language: v.pipe(v.nullable(v.string()), v.description("The language the results were narrowed to, or null.")),
    limit: v.number(),
    offset: v.number(),
    results: v.array(
      v.object({
        ...ArticleSummary.entries,
        snippet: v.pipe(v.string(), v.description("HTML-escaped excerpt with matched terms in <mark>...</mark>.")),
      }),
    ),
    suggestions: v.pipe(
      v.array(v.object({ title: v.string(), url: v.string(), source: v.string(), published_at: v.nullable(v.string()) })),
      v.description("External news, discovery hints only: not in the archive until a listener forwards one."),
    ),
    suggestions_provider: v.pipe(v.nullable(v.string()), v.description("The provider asked, when one was.")),
    suggestions_status: v.pipe(
      v.picklist(["off", "skipped", "ok", "failed"]),
      v.description(
        "off: no provider is configured (NEWS_PROVIDER=off); skipped: not needed (5 local results, expand false or no word); " +
          "ok: the provider answered; failed: the configured provider was unreachable or answered badly.",
      ),
    ),
    degraded: v.pipe(
      v.boolean(),
      v.description("True when a configured provider failed (suggestions_status failed); such responses are not cached by default."),
    ),
  }),
);

export type SearchBody = v.InferOutput<typeof SearchResponse>;
export type SearchParams = { q: string; vertical?: string; language?: string; limit: number; offset: number; expand: boolean };
export type CacheOutcome = "hit" | "miss" | "bypass";

/** A search's answer, with its JSON text made once: a cache hit over REST sends it as it is. */
export type SearchAnswer = { body: SearchBody; json: string };

const cache = new TtlCache<SearchAnswer>();

/** The search cache's live TTL and capacity. */
function searchCacheSettings(env: object): CacheSettings {
  const c = config(env);
  return { ttlSeconds: c.SEARCH_CACHE_TTL_SECONDS, capacity: c.SEARCH_CACHE_CAPACITY };
}

/** Counters for GET /v1/admin/search-cache/stats. */
export function searchCacheStats(env: object) {
  return cache.stats(searchCacheSettings(env));
}

/** Drops every cached answer (the test setup, whose storage reset removes the articles they list). */
export function forgetSearches(): void {
  cache.clear();
}

async function runSearch(env: Env, p: SearchParams, fetcher: typeof fetch): Promise<SearchBody> {
  const hits = await searchArticles(database(env), p);
  const body: SearchBody = {
    query: p.q,
    vertical: p.vertical ?? null,
    language: p.language ?? null,
    limit: p.limit,
    offset: p.offset,
    results: hits.map((h) => ({ ...presentSummary(env, h, null), snippet: h.snippet })),
    suggestions: [],
    suggestions_provider: null,
    suggestions_status: newsConfigured(env) ? "skipped" : "off",
    degraded: false,
  };
  if (p.expand && hits.length < EXPAND_BELOW && indexQuery(p.q)) {
    const news = await fetchNews(env, p.q, SUGGESTION_LIMIT, fetcher);
    if (news) {
      body.suggestions_provider = news.provider;
      body.suggestions_status = news.ok ? "ok" : "failed";
      if (news.ok) body.suggestions = news.items;
      else body.degraded = true;
    }
  }
  return body;
}

/**
 * Search behind the in-isolate cache (docs/rules.md "Rules" 4, search rules 2 and 3). The key is query,
 * vertical, limit and offset as the spec says, plus language and expand, which change the body.
 */
export async function cachedSearch(env: Env, p: SearchParams, bypass: boolean, fetcher: typeof fetch = fetch): Promise<SearchAnswer & { cache: CacheOutcome }> {
  const settings = searchCacheSettings(env);
  const answer = async () => {
    const body = await runSearch(env, p, fetcher);
    return { body, json: JSON.stringify(body) };
  };
  if (bypass) return { ...(await answer()), cache: "bypass" };
  const key = JSON.stringify([p.q, p.vertical ?? "", p.language ?? "", p.limit, p.offset, p.expand]);
  const hit = cache.get(key, settings);
  if (hit) return { ...hit, cache: "hit" };
  const fresh = await answer();
  if (!fresh.body.degraded || config(env).SEARCH_CACHE_DEGRADED) cache.set(key, fresh, settings);
  return { ...fresh, cache: "miss" };
}
