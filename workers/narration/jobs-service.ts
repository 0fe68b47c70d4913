import { eq } from "drizzle-orm";
import { ApiError, ValidationError } from "../core/errors";
import { articles, database, type Database, type JobRow, renderJobs } from "../db";
import type { RenderMessage } from "../kernel/render-messages";
import { type LanguageSource, type NarrationLanguage, primaryLanguage } from "../kernel/language";
import { renderService } from "../kernel/render-contract";
import { DEFAULT_LANGUAGE, VOICES } from "../kernel/voice-catalogue";

/**
 * Creating render jobs, shared by POST /v1/jobs, the publish webhook and render-now. The row is
 * written first and only its id travels on the Queue (workers/kernel/render-messages.ts), so the
 * row is the source of truth and a redelivered message re-reads the current state.
 */
export type NewJob = Pick<typeof renderJobs.$inferInsert, "articleId" | "listenerId" | "text" | "voice" | "priority"> & {
  /** The request that creates the job (RouteInput.requestId), as a value; null for work no request started. */
  requestId: string | null;
} & Partial<Pick<typeof renderJobs.$inferInsert, "warmListenerId" | "language" | "languageSource" | "publisher">>;

/** A complete job row ready to insert: a fresh id, state queued. */
export function newJobRow(job: NewJob): typeof renderJobs.$inferInsert & { id: string } {
  return { ...job, id: crypto.randomUUID(), state: "queued" };
}

/**
 * Sends the job to the render Queue. If the send fails the job could never run, so it is marked
 * failed (with the reason) rather than left queued forever, and the caller gets a 503.
 */
export async function enqueueJob(env: Pick<Env, "RENDER_QUEUE">, db: Database, jobId: string): Promise<void> {
  const message: RenderMessage = { job_id: jobId };
  try {
    await env.RENDER_QUEUE.send(message, { contentType: "json" });
  } catch (err) {
    const reason = err instanceof Error ? err.message.slice(0, 200) : "queue send failed";
    await db
      .update(renderJobs)
      .set({ state: "failed", error: `enqueue failed: ${reason}`, finishedAt: new Date() })
      .where(eq(renderJobs.id, jobId));
    throw new ApiError("unavailable", "the render queue is unavailable; try again", { "Retry-After": "5" });
  }
}

/**
 * Sends the job to the render Queue after the response is on its way, for the routes that answer at
 * once with the job's id (a publish, POST /v1/jobs): the row is already written, so the caller can
 * poll it. Under `wrangler dev` the Queue's broker lives in the consumer's process (miniflare relays
 * a send there through the dev registry), whose thread synthesises for seconds at a time: a publish
 * waited 1.3 to 6 s for its send while a render ran (docs/architecture.md "What runs where"). A send
 * that fails marks the job failed, as enqueueJob does, and the job view and GET /v1/health say so.
 */
export function enqueueJobAfterResponse(env: Pick<Env, "RENDER_QUEUE">, ctx: ExecutionContext, db: Database, jobId: string): void {
  ctx.waitUntil(enqueueJob(env, db, jobId).catch(() => console.error(`render job ${jobId} could not be queued; marked failed`)));
}

/**
 * Inserts a queued job and sends it to the render Queue; returns the stored row. With `ctx` the
 * message is sent after the response (enqueueJobAfterResponse); without, before this resolves.
 */
export async function createJob(env: Pick<Env, "DB" | "RENDER_QUEUE">, job: NewJob, ctx?: ExecutionContext): Promise<JobRow> {
  const db = database(env);
  const [row] = await db.insert(renderJobs).values(newJobRow(job)).returning();
  if (ctx) enqueueJobAfterResponse(env, ctx, db, row.id);
  else await enqueueJob(env, db, row.id);
  return row;
}

/**
 * A job with the slug, publisher and visibility of its article (null for raw-text jobs) and the language
 * it is narrated in (its article's, or a raw text's own), or undefined when unknown.
 */
export async function findJob(
  db: Database,
  id: string,
): Promise<{ job: JobRow; slug: string | null; publisher: string | null; visibility: string | null; spoken: NarrationLanguage } | undefined> {
  const [hit] = await db
    .select({
      job: renderJobs,
      slug: articles.slug,
      publisher: articles.publisher,
      visibility: articles.visibility,
      language: articles.language,
      languageSource: articles.languageSource,
    })
    .from(renderJobs)
    .leftJoin(articles, eq(articles.id, renderJobs.articleId))
    .where(eq(renderJobs.id, id))
    .limit(1);
  if (!hit) return undefined;
  const { language, languageSource, ...rest } = hit;
  return { ...rest, spoken: jobLanguage(hit.job, { language, languageSource }) };
}

/** The language a job narrates in: its article's, else its own (raw text), else the default (a job of before languages). */
function jobLanguage(job: JobRow, article: { language: string | null; languageSource: LanguageSource | null }): NarrationLanguage {
  const language = article.language ?? job.language;
  const source = article.languageSource ?? job.languageSource;
  return language && source ? { language, language_source: source } : { language: primaryLanguage(DEFAULT_LANGUAGE), language_source: "detected" };
}

/** The 422 of a voice nobody offers, at `loc` (where the request named it). */
export function unknownVoice(loc: (string | number)[] = ["body", "voice"]): ValidationError {
  return new ValidationError([{ loc, msg: "unknown voice; see GET /v1/voices", type: "unknown_voice" }]);
}

/**
 * Refuses, before anything is stored or queued, a voice that neither the catalogue nor the render Worker
 * offers (a self-hosted server may list voices beyond the catalogue: GET /v1/voices shows them). A job
 * for such a voice could only fail, and its failure would carry the caller's text (issue 40 item 4).
 * The render Worker is asked only for a voice outside the catalogue; when it does not answer, the voice
 * is refused too.
 */
export async function requireKnownVoice(env: object, voice: string | null | undefined, loc?: (string | number)[]): Promise<void> {
  if (voice === null || voice === undefined || VOICES.some((o) => o.id === voice)) return;
  const listed = await renderService(env)
    .voices()
    .then((c) => c.voices.some((o) => o.id === voice))
    .catch(() => false);
  if (!listed) throw unknownVoice(loc);
}
