import * as v from "valibot";
import { RenderMessage } from "../kernel/render-messages";
import { renderText, type Synthesizers } from "./pipeline/render";
import { renderErrorCode, renderStore, type RenderStoreRpc } from "../kernel/render-contract";

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
export async function consumeRenderBatch(batch: MessageBatch<unknown>, env: object, synthesizers: Synthesizers): Promise<void> {
  const store = renderStore(env);
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenderMessage, message.body);
    if (!parsed.success) {
      console.error("render queue: malformed message dropped");
      message.ack(); // can never succeed: retrying would only fill the dead-letter queue
      continue;
    }
    try {
      await runJob(store, parsed.output.job_id, synthesizers);
      message.ack();
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      // The job's error is shown to API clients: expected failures say what failed, surprises
      // (storage, bugs) only that something did; the log keeps the whole message.
      const code = renderErrorCode(err);
      const error = code ? detail : "internal error while rendering";
      if (code === "unknown_voice" || code === "too_long") {
        // No retry can succeed: fail the job now rather than after every backoff.
        await store.failJob(parsed.output.job_id, error);
        message.ack();
        continue;
      }
      console.warn(`render job ${parsed.output.job_id} attempt ${message.attempts} failed: ${detail}`);
      await store.retryJob(parsed.output.job_id, error);
      message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    }
  }
}

async function runJob(store: RenderStoreRpc, jobId: string, synthesizers: Synthesizers): Promise<void> {
  const claim = await store.claimJob(jobId);
  if (!claim) return;
  // Ties the job's later lines (retries, failures) to the request that created it.
  console.log(`render job ${jobId} started req=${claim.requestId}`);
  const phases = { synthesisMs: 0, encodingMs: 0 };
  const result = await renderText(
    store,
    { text: claim.text, voice: claim.voice, language: claim.language, publisher: claim.publisher, title: claim.title, url: claim.url },
    synthesizers,
    phases,
  );
  // The phases of the render this job ran (none for audio found cached): docs/benchmarks.md "Benchmarks".
  const timing = result.cached ? { synthesisMs: null, encodingMs: null } : phases;
  await store.completeJob(claim, { result, ...timing });
}

/**
 * The dead-letter consumer: a message here exhausted its retries, so its job is marked failed
 * (keeping the last error) unless it finished meanwhile, and the listener's slot is released.
 */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: object): Promise<void> {
  const store = renderStore(env);
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenderMessage, message.body);
    if (parsed.success) await store.failJob(parsed.output.job_id, "render failed after every retry");
    message.ack();
  }
}
