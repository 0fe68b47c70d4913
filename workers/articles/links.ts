import { and, count, desc, eq, gt, isNotNull } from "drizzle-orm";
import { ValidationError } from "../core/errors";
import { articles, type ArticleRow, database, type JobRow, renderJobs } from "../db";
import { FetchRefused } from "../kernel/guarded-fetch";
import type { Listener } from "../kernel/listener-tokens";
import { createJob } from "../narration/jobs-service";
import { FORWARDED_VERTICAL, forwardArticle, publisherOf } from "./forward";
import { fetchLinkArticle, NoArticle } from "./link-page";

/**
 * A listener's link becomes an article in their own feed (issue 45): the page is fetched by the
 * guarded fetcher, its article taken out of it, stored as a listener_private article of theirs with the
 * page's address as its url, and narrated at high priority. The same link again gives the same article
 * and starts nothing.
 */

/** How many articles a listener may add by link in 24 hours (forwards that carry a link count too). */
export const LINKS_PER_DAY = 20;

export interface AddedLink {
  article: ArticleRow;
  /** The render job started for it, or for a link already there its latest job (null if it never had one). */
  job: JobRow | null;
  created: boolean;
}

/** The address a link is known by: without its fragment, which names a place in the page, not another page. */
export function linkKey(url: URL): string {
  const key = new URL(url);
  key.hash = "";
  return key.href;
}

/** The listener's article already added from `url`, with its latest render job. */
async function existingLink(listener: Listener, env: Pick<Env, "DB">, url: string): Promise<AddedLink | undefined> {
  const db = database(env);
  const article = await db.query.articles.findFirst({
    where: and(eq(articles.ownerListenerId, listener.id), eq(articles.visibility, "listener_private"), eq(articles.url, url)),
  });
  if (!article) return undefined;
  const job = await db.query.renderJobs.findFirst({ where: eq(renderJobs.articleId, article.id), orderBy: desc(renderJobs.createdAt) });
  return { article, job: job ?? null, created: false };
}

/** Links added in the last 24 hours by `listener`, and when the budget next frees a place. */
export async function linksToday(env: Pick<Env, "DB">, listener: Listener, now = Date.now()): Promise<number> {
  const [row] = await database(env)
    .select({ n: count() })
    .from(articles)
    .where(
      and(
        eq(articles.ownerListenerId, listener.id),
        eq(articles.visibility, "listener_private"),
        isNotNull(articles.url),
        gt(articles.createdAt, new Date(now - 24 * 60 * 60 * 1000)),
      ),
    );
  return row?.n ?? 0;
}

/** The page's stated publication time, when it is a date. */
function publishedAtOf(time: string | null): Date | null {
  const at = time ? new Date(time) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

/** A 422 on the body's `url`, with the reason in words and a stable type. */
function refused(type: string, msg: string): ValidationError {
  return new ValidationError([{ loc: ["body", "url"], msg, type }]);
}

/**
 * Adds the page at `url` to `listener`'s feed. A refused fetch, a page without an article, a page that
 * opts out of machine reading and a spent daily budget are 422s that change nothing.
 */
export async function addLink(
  env: Pick<Env, "DB" | "RENDER_QUEUE"> & object,
  ctx: ExecutionContext | undefined,
  requestId: string | null,
  listener: Listener,
  url: URL,
): Promise<AddedLink> {
  const asked = linkKey(url);
  const known = await existingLink(listener, env, asked);
  if (known) return known;
  if ((await linksToday(env, listener)) >= LINKS_PER_DAY) {
    throw refused("quota", `this listener has added ${LINKS_PER_DAY} links in the last 24 hours, the most a day allows; try again tomorrow`);
  }
  let page: Awaited<ReturnType<typeof fetchLinkArticle>>;
  try {
    page = await fetchLinkArticle(env, url);
  } catch (err) {
    if (err instanceof FetchRefused) throw refused(`fetch_${err.reason}`, err.message);
    if (err instanceof NoArticle) throw refused(err.message.includes("noai") ? "opted_out" : "no_article", err.message);
    throw err;
  }
  // The page may name a canonical address another link of this listener already reached.
  const canonical = linkKey(new URL(page.url));
  const same = canonical === asked ? undefined : await existingLink(listener, env, canonical);
  if (same) return same;
  const { article, created } = await forwardArticle(database(env), listener, {
    title: page.title,
    text: page.text,
    url: canonical,
    publisher: page.siteName ?? publisherOf(canonical, "link"),
    vertical: FORWARDED_VERTICAL,
    publishedAt: publishedAtOf(page.publishedTime),
    declaredLanguage: page.lang,
  });
  const job = await createJob(env, { articleId: article.id, listenerId: listener.id, text: null, voice: null, priority: "high", requestId }, ctx);
  return { article, job, created };
}
