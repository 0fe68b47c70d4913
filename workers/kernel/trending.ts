import { and, desc, eq, gte, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { articles, type Database, database, plays } from "../db/index";
import { listingColumns } from "./article-columns";
import { narratedIn } from "./language-filter";
import { listedFor, shownInFull } from "./visibility";

/**
 * The trending ranking (docs/rules.md "Rules" 1: "listed in a trending feed"; the formula is ours):
 *
 *   heat  = Σ over plays of the last 7 days of (2 if the play is under 24 h old, else 1)
 *   age_h = hours since the article entered the archive (created_at)
 *   score = (1 + heat) / (age_h + 2)²
 *
 * Gravity 2 (Hacker-News style) keeps the formula to plain arithmetic, which D1 evaluates
 * without math extensions. Ties go to the newer article.
 *
 * Cost: an article without recent plays scores by recency alone, so the top `offset + limit`
 * articles are always among (articles played in the window) ∪ (the `offset + limit` newest that
 * match the filters). Only those candidates are scored: the query stays on indexes however large
 * the archive grows.
 */

const TRENDING_WINDOW_MS = 7 * 24 * 3_600_000;
/** Plays younger than this count twice in `heat`. */
const HOT_WINDOW_MS = 24 * 3_600_000;

export interface TrendingOptions {
  limit: number;
  offset?: number;
  vertical?: string;
  /** Who looks: null (or absent) for public lists, which never contain listener_private articles. */
  listenerId?: number | null;
  /** Only articles whose narration is done (audio_key set). */
  audioReadyOnly?: boolean;
  /** Only articles an editor curated. */
  curatedOnly?: boolean;
  /** Only articles shown in full to an anonymous viewer (no stubs). */
  excludeStubs?: boolean;
  /** Only articles narrated in this language (a canonical BCP 47 tag; kernel/language-filter.ts). */
  language?: string;
}

const trendingColumns = {
  ...listingColumns,
  host: articles.host,
  declassified: articles.declassified,
  visibility: articles.visibility,
  audioKey: articles.audioKey,
  publishedAt: articles.publishedAt,
  url: articles.url,
  ownerListenerId: articles.ownerListenerId,
  language: articles.language,
};

/** One ranked article: the columns feeds and APIs need (camelCase, dates as Date), plus its score. */
export type TrendingArticle = Pick<typeof articles.$inferSelect, keyof typeof trendingColumns> & { score: number };

/**
 * Per article played since `since`, its `heat` (each play counts 2 under 24 h old, else 1) and its
 * play count: the subquery both the trending feed (over a week) and the agents' digest (over a
 * window of the agent's choice) rank by.
 */
export function playHeat(db: Database, now: number, since: number) {
  return db
    .select({
      articleId: plays.articleId,
      heat: sql<number>`sum(case when ${plays.createdAt} >= ${now - HOT_WINDOW_MS} then 2 else 1 end)`.as("heat"),
      plays: sql<number>`count(*)`.as("plays"),
    })
    .from(plays)
    .where(gte(plays.createdAt, new Date(since)))
    .groupBy(plays.articleId)
    .as("heat");
}

/** The trending score of the article row joined to `heat` (null heat for an unplayed article), at `now`. */
export function trendingScore(heat: ReturnType<typeof playHeat>, now: number): SQL<number> {
  const ageHours = sql`((${now} - ${articles.createdAt}) / 3600000.0)`;
  return sql<number>`(1.0 + coalesce(${heat.heat}, 0)) / ((${ageHours} + 2) * (${ageHours} + 2))`;
}

/** The WHERE clause of a public or per-listener listing with the filters of `opts` (shared with the stories feed). */
export function listingFilter(opts: Omit<TrendingOptions, "limit" | "offset">): SQL {
  const filters: SQL[] = [listedFor(opts.listenerId ?? null)];
  if (opts.vertical) filters.push(eq(articles.vertical, opts.vertical));
  if (opts.audioReadyOnly) filters.push(isNotNull(articles.audioKey));
  if (opts.curatedOnly) filters.push(eq(articles.curated, true));
  if (opts.excludeStubs) filters.push(shownInFull);
  if (opts.language) filters.push(narratedIn(articles.language, opts.language));
  return and(...filters)!;
}

/** The current trending ranking, best first. */
export async function trendingArticles(env: Pick<Env, "DB">, opts: TrendingOptions): Promise<TrendingArticle[]> {
  const db = database(env);
  const offset = opts.offset ?? 0;
  const now = Date.now();

  const where = listingFilter(opts);

  const heat = playHeat(db, now, now - TRENDING_WINDOW_MS);

  const newest = db
    .select({ id: articles.id })
    .from(articles)
    .where(where)
    .orderBy(desc(articles.createdAt))
    .limit(offset + opts.limit);

  const score = trendingScore(heat, now);

  return db
    .select({ ...trendingColumns, score: score.as("score") })
    .from(articles)
    .leftJoin(heat, eq(heat.articleId, articles.id))
    .where(and(where, sql`(${heat.articleId} is not null or ${inArray(articles.id, newest)})`))
    .orderBy(desc(sql`score`), desc(articles.createdAt), desc(articles.id))
    .limit(opts.limit)
    .offset(offset);
}
