import { and, desc, eq, gte, inArray, or, sql } from "drizzle-orm";
import { listingFilter } from "../kernel/trending";
import { articles, database, plays } from "../db";

/**
 * The digest ranking: the trending score of workers/articles/trending.ts over a window of the
 * agent's choice instead of its fixed week.
 *
 *   heat  = Σ over plays inside the window of (2 if the play is under 24 h old, else 1)
 *   score = (1 + heat) / (age_h + 2)²
 *
 * Candidates are the articles of the verticals that entered the archive or were played inside
 * the window, so the query stays on the created_at and plays indexes.
 */

const HOT_WINDOW_MS = 24 * 3_600_000;

export interface DigestOptions {
  verticals: string[];
  windowMs: number;
  limit: number;
  /** The acting listener (their own listener_private articles count), or null. */
  listenerId: number | null;
}

export async function digestArticles(env: Pick<Env, "DB">, opts: DigestOptions) {
  const db = database(env);
  const now = Date.now();
  const since = now - opts.windowMs;
  const heat = db
    .select({
      articleId: plays.articleId,
      heat: sql<number>`sum(case when ${plays.createdAt} >= ${now - HOT_WINDOW_MS} then 2 else 1 end)`.as("heat"),
      plays: sql<number>`count(*)`.as("plays"),
    })
    .from(plays)
    .where(gte(plays.createdAt, new Date(since)))
    .groupBy(plays.articleId)
    .as("heat");
  const ageHours = sql`((${now} - ${articles.createdAt}) / 3600000.0)`;
  const score = sql<number>`(1.0 + coalesce(${heat.heat}, 0)) / ((${ageHours} + 2) * (${ageHours} + 2))`;
  return db
    .select({ article: articles, plays: sql<number>`coalesce(${heat.plays}, 0)`, score: score.as("score") })
    .from(articles)
    .leftJoin(heat, eq(heat.articleId, articles.id))
    .where(
      and(
        listingFilter({ listenerId: opts.listenerId }),
        inArray(articles.vertical, opts.verticals),
        or(gte(articles.createdAt, new Date(since)), sql`${heat.articleId} is not null`),
      ),
    )
    .orderBy(desc(sql`score`), desc(articles.createdAt), desc(articles.id))
    .limit(opts.limit);
}
