import { desc, inArray, type SQL } from "drizzle-orm";
import * as v from "valibot";
import { route } from "../../core/route";
import { cacheMatch, cachePut } from "../../core/edge-cache";
import { named } from "../../core/schema-registry";
import { articles, database, type Database } from "../../db/index";
import { ArticleSummary, presentSummary } from "../present";
import { refreshTasteVector, similarityExpr } from "../taste";
import { listingFilter } from "../../kernel/trending";
import { cachedTrending } from "../trending-cache";
import { ListenerTokenParam, listingViewer } from "../viewer";

/** Personalized ranking reorders this many newest matching articles (more when the page lies deeper). */
const PERSONAL_WINDOW = 1000;
/** The virtual vertical that maps to the trending ranking. */
const TRENDING = "trending";

const FeedQuery = v.object({
  vertical: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(80),
      v.description(`Only this topic slug; "${TRENDING}" (virtual, docs/rules.md "Rules" 2) ranks all topics by trending score.`),
    ),
  ),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
  offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10000)), 0),
  curated_only: v.optional(v.pipe(v.boolean(), v.description("Only articles an editor curated.")), false),
  audio_ready_only: v.optional(v.pipe(v.boolean(), v.description("Only articles whose narration is done.")), true),
  personalized: v.optional(v.pipe(v.boolean(), v.description("Rank by similarity to the listener's taste (needs listener_token).")), false),
  exclude_stubs: v.optional(v.pipe(v.boolean(), v.description("Only articles shown in full to an anonymous viewer.")), false),
  listener_token: v.optional(ListenerTokenParam),
});

const FeedResponse = named(
  "StoriesFeedResponse",
  v.object({
    items: v.array(v.object({ ...ArticleSummary.entries, similarity: v.nullable(v.number()) })),
    limit: v.number(),
    offset: v.number(),
    ranking: v.pipe(
      v.picklist(["similarity", "trending", "recency"]),
      v.description("similarity when personalized with a taste vector; trending for vertical=trending; recency otherwise."),
    ),
  }),
);

const listingColumns = {
  slug: articles.slug,
  title: articles.title,
  publisher: articles.publisher,
  vertical: articles.vertical,
  url: articles.url,
  visibility: articles.visibility,
  summary: articles.summary,
  audioKey: articles.audioKey,
  listenSeconds: articles.listenSeconds,
  createdAt: articles.createdAt,
  publishedAt: articles.publishedAt,
  ownerListenerId: articles.ownerListenerId,
};

/** How long an anonymous feed page is served from the edge cache (and by browsers). */
const EDGE_SECONDS = 30;

/**
 * One cache entry per distinct validated query, whatever the parameter order or spelled-out defaults.
 * Built as a plain string: URLSearchParams, a native object, was a tenth of an anonymous hit's time
 * in the profile (bench/README.md, "Where the time went").
 */
function edgeCacheKey(query: Record<string, unknown>): string {
  const params = Object.keys(query)
    .filter((key) => query[key] !== undefined)
    .sort()
    .map((key) => `${key}=${encodeURIComponent(String(query[key]))}`);
  return `https://stories-feed.cache/?${params.join("&")}`;
}

type Listing = { [K in keyof typeof listingColumns]: (typeof articles.$inferSelect)[K] };
type Page = { limit: number; offset: number };

function byRecency(db: Database, where: SQL, page: Page) {
  return db
    .select(listingColumns)
    .from(articles)
    .where(where)
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .limit(page.limit)
    .offset(page.offset)
    .then((rows) => rows.map((r) => ({ ...r, similarity: null })));
}

/** The newest PERSONAL_WINDOW matches (or more, for a deep page), reordered by taste similarity. */
function bySimilarity(db: Database, where: SQL, taste: number[], page: Page) {
  const window = db
    .select({ id: articles.id })
    .from(articles)
    .where(where)
    .orderBy(desc(articles.createdAt))
    .limit(Math.max(PERSONAL_WINDOW, page.offset + page.limit));
  return db
    .select({ ...listingColumns, similarity: similarityExpr(taste).mapWith(Number).as("similarity") })
    .from(articles)
    .where(inArray(articles.id, window))
    .orderBy(desc(similarityExpr(taste)), desc(articles.createdAt), desc(articles.id))
    .limit(page.limit)
    .offset(page.offset);
}

export const storiesFeed = route({
  method: "GET",
  path: "/v1/stories/feed",
  tag: "stories",
  summary: "Newest stories, filtered; personalized by taste similarity with a listener token",
  description:
    "With listener_token the caller's own listener_private articles are included; nobody else's ever are. " +
    "personalized ranks the newest matching articles by cosine similarity to the listener's taste vector (built from verticals, plays and forwards), recency breaking ties.",
  auth: "none",
  rateLimit: "read",
  query: FeedQuery,
  responses: { 200: { description: "One page of the feed; an unknown listener_token reads as none", schema: FeedResponse } },
  async handle({ env, ctx, query, request }) {
    // Anonymous pages are the same for everyone: the edge cache answers them for EDGE_SECONDS.
    // Without a token `personalized` changes nothing, so it does not split the cache.
    const edgeKey = query.listener_token ? null : edgeCacheKey({ ...query, personalized: undefined });
    const cached = edgeKey && (await cacheMatch(edgeKey, request));
    if (cached) return cached;
    const db = database(env);
    const listener = await listingViewer(db, query.listener_token);
    let taste: number[] | null = null;
    if (query.personalized && listener) {
      // Stale-while-revalidate: rank with the stored vector and rebuild it after the response, so
      // new plays and preference changes count from the next request on.
      if (listener.tasteVector) ctx.waitUntil(refreshTasteVector(db, listener));
      taste = listener.tasteVector ?? (await refreshTasteVector(db, listener));
    }
    const trending = !taste && query.vertical === TRENDING;
    const filters = {
      listenerId: listener?.id ?? null,
      vertical: query.vertical === TRENDING ? undefined : query.vertical,
      audioReadyOnly: query.audio_ready_only,
      curatedOnly: query.curated_only,
      excludeStubs: query.exclude_stubs,
    };
    let rows: (Listing & { similarity: number | null })[];
    if (trending) {
      const ranked = await cachedTrending(env, { ...filters, limit: query.limit, offset: query.offset });
      rows = ranked.map((r) => ({ ...r, similarity: null }));
    } else {
      const where = listingFilter(filters);
      rows = taste ? await bySimilarity(db, where, taste, query) : await byRecency(db, where, query);
    }

    const body: v.InferOutput<typeof FeedResponse> = {
      items: rows.map((r) => ({
        ...presentSummary(env, r, listener?.id ?? null),
        similarity: r.similarity === null ? null : Math.round(r.similarity * 1e4) / 1e4,
      })),
      limit: query.limit,
      offset: query.offset,
      ranking: taste ? "similarity" : trending ? "trending" : "recency",
    };
    const cacheControl = edgeKey ? `public, max-age=${EDGE_SECONDS}` : "private, no-store";
    const response = Response.json(body, { headers: { "Cache-Control": cacheControl } });
    if (edgeKey) ctx.waitUntil(cachePut(edgeKey, response));
    return response;
  },
});
