import { eq, sql } from "drizzle-orm";
import { TtlCache } from "../core/ttl-cache";
import { type ArticleRow, articles, type Database, preparedOnce } from "../db";

const bySlug = preparedOnce((db) => db.query.articles.findFirst({ where: eq(articles.slug, sql.placeholder("slug")) }).prepare());

/** The article with this slug, whoever may see it: callers decide with `openableBy` (kernel/visibility.ts). */
export function articleBySlug(db: Database, slug: string): Promise<ArticleRow | undefined> {
  return bySlug(db).execute({ slug });
}

/**
 * Articles read in the last few seconds, per isolate, for the paths that only show an article (its
 * record over REST and MCP). A story many agents ask for at once costs one D1 read per isolate every
 * five seconds instead of one a call (bench/README, "Where the time went", item 6). Five seconds is well
 * inside what the record already allows: it is served with `max-age=60`, and search answers are cached
 * for 60 s (docs/rules.md "Rules" 4). Bodies run to 200,000 characters, so 32 rows bound the memory to a
 * few MB. Rows are kept, never a read in flight: a Worker request may not wait on another request's I/O
 * (workerd fails it as "Promise will never complete" or "Cannot perform I/O on behalf of a different
 * request"), so concurrent first reads each make their own.
 */
const recent = new TtlCache<ArticleRow>();
const RECENT = { ttlSeconds: 5, capacity: 32 };
/** Counts the forgets: a read that began before one may hold the old row, so it is not kept. */
let forgets = 0;

/** `articleBySlug`, answered from the isolate's recent reads; an article not found is not kept. */
export async function recentArticleBySlug(db: Database, slug: string): Promise<ArticleRow | undefined> {
  const kept = recent.get(slug, RECENT);
  if (kept) return kept;
  const began = forgets;
  const row = await articleBySlug(db, slug);
  // A slug published a moment later must show at once: only a found article is kept.
  if (row && began === forgets) recent.set(slug, row, RECENT);
  return row;
}

/** Drops the isolate's recent read of `slug`: its article was just written here. */
export function forgetRecentArticle(slug: string): void {
  forgets += 1;
  recent.drop(slug);
}

/** Drops every recent read (the test setup, whose storage reset removes the articles). */
export function forgetRecentArticles(): void {
  forgets += 1;
  recent.clear();
}
