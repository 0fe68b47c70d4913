import { and, desc, eq, gte, inArray, or, sql } from "drizzle-orm";
import { articles, database } from "../db";
import { listingFilter, playHeat, trendingScore } from "../kernel/trending";

/**
 * The digest ranking: the trending score of workers/kernel/trending.ts over a window of the
 * agent's choice instead of its fixed week. Candidates are the articles of the verticals that
 * entered the archive or were played inside the window, so the query stays on the created_at and
 * plays indexes.
 */

export interface DigestOptions {
  verticals: string[];
  windowMs: number;
  limit: number;
  /** The acting listener (their own listener_private articles count), or null. */
  listenerId: number | null;
}

/** The articles of `opts.verticals` ranked by trending score over `opts.windowMs`, with their play counts. */
export async function digestArticles(env: Pick<Env, "DB">, opts: DigestOptions) {
  const db = database(env);
  const now = Date.now();
  const since = now - opts.windowMs;
  const heat = playHeat(db, now, since);
  return db
    .select({ article: articles, plays: sql<number>`coalesce(${heat.plays}, 0)`, score: trendingScore(heat, now).as("score") })
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
