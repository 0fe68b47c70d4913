import { eq, or, sql, type SQL } from "drizzle-orm";
import { articles } from "../db/index";

/**
 * Who may see an article (README "Rules" 2, Article visibility). `public` articles are shown in full
 * to anyone; `publisher_only` ones are listed as thin noindex stubs; `listener_private` ones exist
 * only for the listener who forwarded them, and for nobody when that owner is gone.
 */

/** Articles shown in full to an anonymous viewer. */
export const shownInFull: SQL = eq(articles.visibility, "public");

/** Articles that may be listed for `listenerId` (null: an anonymous viewer or a public feed). */
export function listedFor(listenerId: number | null): SQL {
  const notPrivate = sql`${articles.visibility} <> 'listener_private'`;
  if (listenerId === null) return notPrivate;
  return or(notPrivate, eq(articles.ownerListenerId, listenerId))!;
}

/** Whether the viewer `listenerId` (null: anonymous) may open this article's record at all. */
export function openableBy(
  article: { visibility: (typeof articles.$inferSelect)["visibility"]; ownerListenerId: number | null },
  listenerId: number | null,
): boolean {
  if (article.visibility !== "listener_private") return true;
  return listenerId !== null && article.ownerListenerId === listenerId;
}

/** Whether an anonymous viewer sees this article in full: the row form of `shownInFull`. */
export function isShownInFull(article: { visibility: (typeof articles.$inferSelect)["visibility"] }): boolean {
  return article.visibility === "public";
}
