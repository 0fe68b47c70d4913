import { and, desc, eq, gte, inArray, isNotNull } from "drizzle-orm";
import { ACTIVE_JOB_STATES, type ArticleRow, audioObjects, type Database, isActiveJob, type JobRow, renderJobs } from "../db";

/**
 * Render-job lookups get_audio_url needs and the narration services do not offer: jobs of one
 * article in one voice (render-now and its polling path only know the article's own voice).
 */

/** The newest done job that narrates the article's current text in `voice`. */
export function doneJobInVoice(db: Database, article: ArticleRow, voice: string): Promise<JobRow | undefined> {
  return db.query.renderJobs.findFirst({
    where: and(
      eq(renderJobs.articleId, article.id),
      eq(renderJobs.state, "done"),
      eq(renderJobs.voice, voice),
      isNotNull(renderJobs.audioKey),
      gte(renderJobs.createdAt, article.updatedAt ?? new Date(0)),
    ),
    orderBy: desc(renderJobs.createdAt),
  });
}

/** A queued or running job of the article asked for in `voice` (null: the article's own voice), by anyone. */
export function inFlightJobInVoice(db: Database, articleId: number, voice: string | null): Promise<JobRow | undefined> {
  const jobs = db.query.renderJobs.findMany({
    where: and(eq(renderJobs.articleId, articleId), inArray(renderJobs.state, ACTIVE_JOB_STATES)),
    orderBy: desc(renderJobs.createdAt),
  });
  return jobs.then((rows) => rows.find((j) => j.voice === voice));
}

const POLL_MS = 250;

/** Re-reads the job until it leaves queued/running or `boundMs` has passed; the last row read. */
export async function awaitJob(db: Database, jobId: string, boundMs: number): Promise<JobRow | undefined> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const job = await db.query.renderJobs.findFirst({ where: eq(renderJobs.id, jobId) });
    if (!job || !isActiveJob(job.state) || Date.now() >= deadline) return job;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, deadline - Date.now())));
  }
}

/** The duration of the audio stored under `key` in whole seconds, or null when unknown. */
export async function durationOf(db: Database, key: string): Promise<number | null> {
  const object = await db.query.audioObjects.findFirst({ columns: { durationSeconds: true }, where: eq(audioObjects.key, key) });
  return object ? Math.round(object.durationSeconds) : null;
}
