import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { type ArticleRow, articles, audioObjects, type Database, type JobRow, renderJobs } from "../db/index";
import { HELD_JOB_STATES } from "../narration/review-gate";

/** What the studio reads: a publisher's narrations, their jobs and their audio (docs/publishers.md "The studio's pages"). */

/** The states the studio shows, from a narration's newest job (STUDIO_STATES' order is the filter's). */
export const STUDIO_STATES = ["queued", "rendering", "awaiting_review", "done", "failed", "rejected"] as const;
export type StudioState = (typeof STUDIO_STATES)[number];

export const STATE_LABELS: Record<StudioState, string> = {
  queued: "Queued",
  rendering: "Rendering",
  awaiting_review: "Awaiting review",
  done: "Done",
  failed: "Failed",
  rejected: "Rejected",
};

/** The studio's state of an article: its newest job's, or done/queued by its audio when it has no job. */
export function stateOf(article: Pick<ArticleRow, "audioKey">, job: JobRow | undefined): StudioState {
  if (!job) return article.audioKey ? "done" : "queued";
  switch (job.state) {
    case "running":
      return "rendering";
    case "cancelled":
      return "failed";
    default:
      return job.state;
  }
}

/**
 * A failure's reason in words for an editor: the job's recorded error is an engineer's, so the
 * studio says what happened first and keeps the detail after it.
 */
export function failureInWords(job: JobRow | undefined): string | null {
  if (!job) return null;
  if (job.state === "cancelled") return "The render was cancelled by an operator.";
  if (job.state !== "failed") return null;
  const detail = job.error ?? "no reason was recorded";
  if (/enqueue failed/.test(detail)) return `The render could not be queued (${detail}). Re-render to try again.`;
  if (/timed out|stuck|sweep/i.test(detail)) return `The render took too long and was given up (${detail}). Re-render to try again.`;
  return `The text-to-speech engines could not speak it (${detail}). Re-render, perhaps in another voice.`;
}

/** One narration as the studio lists it. */
export interface Narration {
  article: ArticleRow;
  job: JobRow | undefined;
  state: StudioState;
  /** Seconds of the audio the newest job made, or of the article's audio. */
  seconds: number | null;
}

/** The most articles the list shows: the newest, as a publisher looks at what it just sent. */
export const LIST_LIMIT = 200;

/** What the list is narrowed to: a state, a language (an article's BCP 47 tag), both or neither. */
export interface NarrationFilter {
  state?: StudioState;
  language?: string;
}

/** The publisher's articles, newest first, each with its newest job and state; the filter keeps only those in its state and language. */
export async function narrationsOf(db: Database, publisher: string, filter: NarrationFilter = {}): Promise<Narration[]> {
  const { state, language } = filter;
  const rows = await db
    .select()
    .from(articles)
    .where(and(eq(articles.publisher, publisher), language ? eq(articles.language, language) : undefined))
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .limit(LIST_LIMIT);
  const ids = rows.map((a) => a.id);
  const jobs = ids.length ? await db.select().from(renderJobs).where(inArray(renderJobs.articleId, ids)).orderBy(desc(renderJobs.createdAt)) : [];
  const newest = new Map<number, JobRow>();
  for (const job of jobs) if (job.articleId !== null && !newest.has(job.articleId)) newest.set(job.articleId, job);
  const keys = [...new Set(rows.map((a) => newest.get(a.id)?.audioKey ?? a.audioKey).filter((k): k is string => k !== null))];
  const audio = keys.length
    ? await db.select({ key: audioObjects.key, seconds: audioObjects.durationSeconds }).from(audioObjects).where(inArray(audioObjects.key, keys))
    : [];
  const seconds = new Map(audio.map((a) => [a.key, Math.round(a.seconds)]));
  const all = rows.map((article) => {
    const job = newest.get(article.id);
    const key = job?.audioKey ?? article.audioKey;
    return { article, job, state: stateOf(article, job), seconds: key ? (seconds.get(key) ?? null) : null };
  });
  return state ? all.filter((n) => n.state === state) : all;
}

/** The languages the publisher's articles are narrated in, for the list's filter. */
export async function languagesOf(db: Database, publisher: string): Promise<string[]> {
  const rows = await db.selectDistinct({ language: articles.language }).from(articles).where(eq(articles.publisher, publisher)).orderBy(articles.language);
  return rows.map((r) => r.language);
}

/** Every job of the article, newest first: its history. */
export function jobsOf(db: Database, articleId: number): Promise<JobRow[]> {
  return db.select().from(renderJobs).where(eq(renderJobs.articleId, articleId)).orderBy(desc(renderJobs.createdAt));
}

/**
 * The audio a member hears on the article's page: that of its newest render with audio, held for
 * review or not (what they are deciding on), else the article's own.
 */
export async function audioToReview(db: Database, article: ArticleRow): Promise<string | null> {
  const newest = await db.query.renderJobs.findFirst({
    columns: { audioKey: true },
    where: and(eq(renderJobs.articleId, article.id), inArray(renderJobs.state, ["done", ...HELD_JOB_STATES]), isNotNull(renderJobs.audioKey)),
    orderBy: desc(renderJobs.createdAt),
  });
  return newest?.audioKey ?? article.audioKey;
}
