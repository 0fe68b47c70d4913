import { eq, sql } from "drizzle-orm";
import { articles, preparedOnce, type Database } from "../db";

type ArticleRow = typeof articles.$inferSelect;

const bySlug = preparedOnce((db) => db.query.articles.findFirst({ where: eq(articles.slug, sql.placeholder("slug")) }).prepare());

/** The article with this slug, whoever may see it: callers decide with `openableBy` (kernel/visibility.ts). */
export function articleBySlug(db: Database, slug: string): Promise<ArticleRow | undefined> {
  return bySlug(db).execute({ slug });
}
