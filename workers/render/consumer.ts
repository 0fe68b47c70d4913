import { and, eq, inArray, isNull } from "drizzle-orm";
import * as v from "valibot";
import { ACTIVE_JOB_STATES, articles, database, isActiveJob, listeners, renderJobs } from "../db/index";
import { RenderMessage } from "../kernel/render-messages";
import { renderText, type Synthesizers } from "./pipeline/render";
import { narratedText } from "../kernel/article-text";
import { renderErrorCode } from "../kernel/render-contract";

type ConsumerEnv = Pick<Env, "DB" | "AUDIO" | "RENDER_GATE">;

/** Retry delay after the nth failed attempt: 10 s, 20 s, 40 s, ... capped at 5 minutes. */
export function backoffSeconds(attempts: number): number {
  return Math.min(300, 10 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The render Queue consumer. Delivery is at least once, so each message re-reads its job and a job
 * already finished is acked without work. A failed render goes back to "queued" with its error and
 * the message is retried with exponential backoff; after max_retries it lands in the dead-letter
 * queue (consumeDeadLetters).
 */
export async function consumeRenderBatch(batch: MessageBatch<unknown>, env: ConsumerEnv, synthesizers: Synthesizers): Promise<void> {
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenderMessage, message.body);
    if (!parsed.success) {
      console.error("render queue: malformed message dropped");
      message.ack(); // can never succeed: retrying would only fill the dead-letter queue
      continue;
    }
    try {
      await runJob(env, parsed.output.job_id, synthesizers);
      message.ack();
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      // The job's error is shown to API clients: expected failures say what failed, surprises
      // (storage, bugs) only that something did; the log keeps the whole message.
      const code = renderErrorCode(err);
      const error = code ? detail : "internal error while rendering";
      if (code === "unknown_voice" || code === "too_long") {
        // No retry can succeed: fail the job now rather than after every backoff.
        await failJob(env, parsed.output.job_id, error);
        message.ack();
        continue;
      }
      console.warn(`render job ${parsed.output.job_id} attempt ${message.attempts} failed: ${detail}`);
      await database(env)
        .update(renderJobs)
        .set({ state: "queued", error })
        .where(and(eq(renderJobs.id, parsed.output.job_id), eq(renderJobs.state, "running")));
      message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    }
  }
}

async function runJob(env: ConsumerEnv, jobId: string, synthesizers: Synthesizers): Promise<void> {
  const db = database(env);
  const job = await db.select().from(renderJobs).where(eq(renderJobs.id, jobId)).get();
  if (!job) {
    console.warn(`render job ${jobId} not found: acked`);
    return;
  }
  if (!isActiveJob(job.state)) return;
  const article = job.articleId === null ? undefined : await db.select().from(articles).where(eq(articles.id, job.articleId)).get();
  const text = article ? narratedText(article) : job.text;
  if (!text) throw new Error("job has neither an article nor text");

  await db
    .update(renderJobs)
    .set({ state: "running", attempts: job.attempts + 1, startedAt: new Date() })
    .where(and(eq(renderJobs.id, jobId), inArray(renderJobs.state, ACTIVE_JOB_STATES)));
  const phases = { synthesisMs: 0, encodingMs: 0 };
  const result = await renderText(env, { text, voice: job.voice ?? article?.voice ?? undefined }, synthesizers, phases);

  // The phases of the render this job ran (none for audio found cached): README "Benchmarks".
  const timing = result.cached ? { synthesisMs: null, encodingMs: null } : phases;
  const markDone = db
    .update(renderJobs)
    .set({ state: "done", audioKey: result.key, provider: result.provider, voice: result.voice, error: null, finishedAt: new Date(), ...timing })
    .where(and(eq(renderJobs.id, jobId), eq(renderJobs.state, "running")));
  // The article takes the audio only if its text is still the one rendered (a re-publish may have changed it).
  const setArticleAudio = article
    ? [
        db
          .update(articles)
          .set({ audioKey: result.key, listenSeconds: Math.round(result.duration_seconds) })
          .where(and(eq(articles.id, article.id), eq(articles.contentHash, article.contentHash))),
      ]
    : [];
  // A pre-warm render done is the listener's first render (README "Rules" 4, pre-warm).
  const markWarmed = job.warmListenerId
    ? [
        db
          .update(listeners)
          .set({ firstRenderDoneAt: new Date() })
          .where(and(eq(listeners.id, job.warmListenerId), isNull(listeners.firstRenderDoneAt))),
      ]
    : [];
  await db.batch([markDone, ...setArticleAudio, ...markWarmed]);
  await releaseSlot(env, job.listenerId, jobId);
}

/**
 * The dead-letter consumer: a message here exhausted its retries, so its job is marked failed
 * (keeping the last error) unless it finished meanwhile, and the listener's slot is released.
 */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: ConsumerEnv): Promise<void> {
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenderMessage, message.body);
    if (parsed.success) {
      await failJob(env, parsed.output.job_id, "render failed after every retry");
    }
    message.ack();
  }
}

/** Marks a job failed (keeping an earlier error over `error`) unless it finished, and releases its slot. */
async function failJob(env: ConsumerEnv, jobId: string, error: string): Promise<void> {
  const db = database(env);
  const job = await db.select().from(renderJobs).where(eq(renderJobs.id, jobId)).get();
  if (!job || !isActiveJob(job.state)) return;
  await db
    .update(renderJobs)
    .set({ state: "failed", error: job.error ?? error, finishedAt: new Date() })
    .where(and(eq(renderJobs.id, jobId), inArray(renderJobs.state, ACTIVE_JOB_STATES)));
  await releaseSlot(env, job.listenerId, jobId);
}

async function releaseSlot(env: ConsumerEnv, listenerId: number | null, jobId: string): Promise<void> {
  if (listenerId === null) return;
  await env.RENDER_GATE.getByName(String(listenerId)).release(jobId);
}
