import { and, desc, eq, inArray, isNotNull, type SQL } from "drizzle-orm";
import * as v from "valibot";
import { route } from "../core/route";
import { named } from "../core/schema-registry";
import { articles, database } from "../db";
import { ArticleSummary, presentSummary } from "./present";
import { refreshTasteVector, similarityExpr } from "./taste";
import { ListenerTokenParam, viewer } from "./viewer";
import { listedFor, shownInFull } from "./visibility";

/** Personalized ranking reorders this many newest matching articles (more when the page lies deeper). */
export const PERSONAL_WINDOW = 1000;

const FeedQuery = v.object({
  vertical: v.optional(v.pipe(v.string(), v.maxLength(80), v.description("Only this topic slug."))),
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
    ranking: v.pipe(v.picklist(["similarity", "recency"]), v.description("recency when not personalized or when the listener has no taste vector.")),
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
  responses: { 200: { description: "One page of the feed", schema: FeedResponse }, 404: { description: "Unknown listener_token" } },
  async handle({ env, query }) {
    const db = database(env);
    const listener = await viewer(db, query.listener_token);
    const filters: SQL[] = [listedFor(listener?.id ?? null)];
    if (query.vertical) filters.push(eq(articles.vertical, query.vertical));
    if (query.curated_only) filters.push(eq(articles.curated, true));
    if (query.audio_ready_only) filters.push(isNotNull(articles.audioKey));
    if (query.exclude_stubs) filters.push(shownInFull);
    const where = and(...filters);

    const taste = query.personalized && listener ? (listener.tasteVector ?? (await refreshTasteVector(db, listener.id))) : null;
    const rows = taste
      ? await db
          .select({ ...listingColumns, similarity: similarityExpr(taste).mapWith(Number).as("similarity") })
          .from(articles)
          .where(
            inArray(
              articles.id,
              db.select({ id: articles.id }).from(articles).where(where).orderBy(desc(articles.createdAt))
                .limit(Math.max(PERSONAL_WINDOW, query.offset + query.limit)),
            ),
          )
          .orderBy(desc(similarityExpr(taste)), desc(articles.createdAt), desc(articles.id))
          .limit(query.limit)
          .offset(query.offset)
      : (await db.select(listingColumns).from(articles).where(where).orderBy(desc(articles.createdAt), desc(articles.id))
          .limit(query.limit).offset(query.offset)).map((r) => ({ ...r, similarity: null }));

    const body: v.InferOutput<typeof FeedResponse> = {
      items: rows.map((r) => ({
        ...presentSummary(env, r, listener !== null && r.ownerListenerId === listener.id),
        similarity: r.similarity === null ? null : Math.round(r.similarity * 1e4) / 1e4,
      })),
      limit: query.limit,
      offset: query.offset,
      ranking: taste ? "similarity" : "recency",
    };
    const cacheControl = query.listener_token ? "private, no-store" : "public, max-age=30";
    return Response.json(body, { headers: { "Cache-Control": cacheControl } });
  },
});
