import { and, desc, eq, isNull, lte, or } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { announceJob } from "../kernel/webhook-events";
import { type ArticleRow, articles, audioObjects, database, type Database, type JobRow, renderJobs } from "../db/index";
import { articleBySlug, forgetRecentArticle } from "../kernel/article-by-slug";

/**
 * Releasing or rejecting a render held for review (narration/review-gate.ts holds it; docs/publishers.md
 * "Review before release"). Shared by the API (publisher key) and the studio's forms (an editor).
 */

/** The publisher's article `slug`; another publisher's, or none, is a 404 (docs/articles.md "Visibility"). */
export async function publisherArticle(db: Database, publisher: string, slug: string): Promise<ArticleRow> {
  const article = await articleBySlug(db, slug);
  if (!article || article.publisher !== publisher) throw new ApiError("not_found", `no article ${slug} of this publisher`);
  return article;
}

/** The article's newest render waiting for review; 409 when none waits. */
async function waitingJob(db: Database, article: ArticleRow): Promise<JobRow> {
  const job = await db.query.renderJobs.findFirst({
    where: and(eq(renderJobs.articleId, article.id), eq(renderJobs.state, "awaiting_review")),
    orderBy: desc(renderJobs.createdAt),
  });
  if (!job?.audioKey) throw new ApiError("conflict", `no narration of ${article.slug} is awaiting review`);
  return job;
}

/**
 * Releases the newest render awaiting review: the job is done and the article takes its audio, in
 * one batch, unless the text changed after the render began (a newer publish renders again). From
 * then on every surface hands the audio out as it does any other.
 */
export async function releaseNarration(env: Pick<Env, "DB" | "WEBHOOK_QUEUE">, publisher: string, slug: string): Promise<JobRow> {
  const db = database(env);
  const article = await publisherArticle(db, publisher, slug);
  const job = await waitingJob(db, article);
  const audio = await db.query.audioObjects.findFirst({ columns: { durationSeconds: true }, where: eq(audioObjects.key, job.audioKey ?? "") });
  const [released] = await db.batch([
    db
      .update(renderJobs)
      .set({ state: "done", reviewNote: null })
      .where(and(eq(renderJobs.id, job.id), eq(renderJobs.state, "awaiting_review")))
      .returning(),
    db
      .update(articles)
      .set({ audioKey: job.audioKey, listenSeconds: audio ? Math.round(audio.durationSeconds) : null })
      .where(and(eq(articles.id, article.id), or(isNull(articles.updatedAt), lte(articles.updatedAt, job.createdAt)))),
  ]);
  forgetRecentArticle(slug);
  if (!released[0]) throw new ApiError("conflict", `the narration of ${slug} was released or rejected meanwhile`);
  // Released, it is ready for listeners: the publisher's webhooks hear so (docs/publishers.md "Webhooks").
  await announceJob(env, job.id, "narration.ready");
  return released[0];
}

/** Rejects the newest render awaiting review with a note: its audio stays the publisher's; a re-render may follow. */
export async function rejectNarration(env: Pick<Env, "DB">, publisher: string, slug: string, note: string): Promise<JobRow> {
  const db = database(env);
  const article = await publisherArticle(db, publisher, slug);
  const job = await waitingJob(db, article);
  const [rejected] = await db
    .update(renderJobs)
    .set({ state: "rejected", reviewNote: note })
    .where(and(eq(renderJobs.id, job.id), eq(renderJobs.state, "awaiting_review")))
    .returning();
  if (!rejected) throw new ApiError("conflict", `the narration of ${slug} was released or rejected meanwhile`);
  return rejected;
}
