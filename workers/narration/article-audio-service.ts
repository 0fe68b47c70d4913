import { and, desc, eq, gte, inArray, isNotNull } from "drizzle-orm";
import { articleBySlug } from "../kernel/article-by-slug";
import { isNarratedFor } from "../kernel/visibility";
import { ACTIVE_JOB_STATES, type ArticleRow, audioObjects, type Database, type JobRow, renderJobs } from "../db";
import { articleAudio, type ArticleAudio } from "./article-audio-view";

/** Where an article's audio stands, shared by render-now and its polling path. */

/**
 * The done job whose audio narrates the article's current text. The render consumer sets
 * articles.audio_key when a render of the current text finishes; a done job created after the
 * article's last update also counts (its render read the current text).
 */
export async function doneJob(db: Database, article: ArticleRow): Promise<JobRow | undefined> {
  const since = article.updatedAt ?? new Date(0);
  const done = and(eq(renderJobs.articleId, article.id), eq(renderJobs.state, "done"), isNotNull(renderJobs.audioKey));
  const current = article.audioKey ? and(done, eq(renderJobs.audioKey, article.audioKey)) : and(done, gte(renderJobs.createdAt, since));
  return db.query.renderJobs.findFirst({ where: current, orderBy: desc(renderJobs.createdAt) });
}

/** The newest job of the article, whatever its state. */
export function latestJob(db: Database, articleId: number): Promise<JobRow | undefined> {
  return db.query.renderJobs.findFirst({ where: eq(renderJobs.articleId, articleId), orderBy: desc(renderJobs.createdAt) });
}

/** The listener's own queued or running job for the article, if any. */
export function inFlightJobOf(db: Database, articleId: number, listenerId: number): Promise<JobRow | undefined> {
  return db.query.renderJobs.findFirst({
    where: and(eq(renderJobs.articleId, articleId), eq(renderJobs.listenerId, listenerId), inArray(renderJobs.state, ACTIVE_JOB_STATES)),
  });
}

/**
 * An article by slug whose narration `listenerId` (null: anonymous) may have, or undefined: a
 * missing article, another listener's private one and a publisher_only stub all read the same
 * (docs/articles.md "Visibility": 404, not 403), so render-now, its polling path and get_audio_url neither
 * render nor serve a stub's audio (kernel/visibility.ts).
 */
export async function articleFor(db: Database, slug: string, listenerId: number | null): Promise<ArticleRow | undefined> {
  const article = await articleBySlug(db, slug);
  return article && isNarratedFor(article, listenerId) ? article : undefined;
}

/** The article's audio as render-now and the polling path report it. */
export async function audioState(env: object, db: Database, article: ArticleRow): Promise<ArticleAudio> {
  const done = await doneJob(db, article);
  if (done?.audioKey) {
    const seconds =
      done.audioKey === article.audioKey && article.listenSeconds !== null
        ? article.listenSeconds
        : await db.query.audioObjects
            .findFirst({ columns: { durationSeconds: true }, where: eq(audioObjects.key, done.audioKey) })
            .then((o) => (o ? Math.round(o.durationSeconds) : null));
    return articleAudio(env, article, done, undefined, seconds);
  }
  return articleAudio(env, article, undefined, await latestJob(db, article.id), null);
}
