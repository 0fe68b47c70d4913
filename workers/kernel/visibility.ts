import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { articles } from "../db/index";

/**
 * Who may see an article (docs/rules.md "Rules" 2, Article visibility). `public` articles are shown in full
 * to anyone; `publisher_only` ones are listed as thin noindex stubs; `listener_private` ones exist
 * only for the listener who forwarded them, and for nobody when that owner is gone.
 *
 * A stub is paywalled content: its text and its narration (audio URLs, transcripts, renders) reach
 * only its publisher and the operator, through the API-key paths (POST /v1/jobs, GET /v1/jobs/{id},
 * GET /v1/audio/{key} with the key), never through a listing, feed or record a listener or an agent
 * reads (issue 29, item 3). `narratedFor` and `isNarratedFor` say whose narration a viewer may have.
 */

type Visibility = (typeof articles.$inferSelect)["visibility"];

/** Articles shown in full to an anonymous viewer. */
export const shownInFull: SQL = eq(articles.visibility, "public");

/** Articles that may be listed for `listenerId` (null: an anonymous viewer or a public feed). */
export function listedFor(listenerId: number | null): SQL {
  const notPrivate = sql`${articles.visibility} <> 'listener_private'`;
  if (listenerId === null) return notPrivate;
  return or(notPrivate, eq(articles.ownerListenerId, listenerId))!;
}

/** Whether the viewer `listenerId` (null: anonymous) may open this article's record at all. */
export function openableBy(article: { visibility: Visibility; ownerListenerId: number | null }, listenerId: number | null): boolean {
  if (article.visibility !== "listener_private") return true;
  return listenerId !== null && article.ownerListenerId === listenerId;
}

/** Whether an anonymous viewer sees this article in full: the row form of `shownInFull`. */
export function isShownInFull(article: { visibility: Visibility }): boolean {
  return article.visibility === "public";
}

/** Articles whose text and narration `listenerId` (null: anonymous) may have: the public ones and their own private ones. */
export function narratedFor(listenerId: number | null): SQL {
  if (listenerId === null) return shownInFull;
  return or(shownInFull, and(eq(articles.visibility, "listener_private"), eq(articles.ownerListenerId, listenerId)))!;
}

/**
 * The row form of `narratedFor`. A row without its owner (a public listing's, which never holds a
 * private article) counts as nobody's.
 */
export function isNarratedFor(article: { visibility: Visibility; ownerListenerId?: number | null }, listenerId: number | null): boolean {
  if (article.visibility === "public") return true;
  return article.visibility === "listener_private" && listenerId !== null && article.ownerListenerId === listenerId;
}
