import { and, inArray, lt, sql } from "drizzle-orm";
import { ACTIVE_JOB_STATES, database, renderJobs } from "../db";
import type { RenderMessage } from "../kernel/render-messages";

/**
 * A job is stale when it has been queued or running for longer than a Queue consumer may live
 * (15 minutes of wall time) without finishing: its message was lost (a redeploy, a local dev
 * reload) and nothing would ever run it again.
 */
export const STALE_AFTER_MS = 20 * 60_000;

/** Queue sendBatch takes at most 100 messages. */
const BATCH = 100;

/**
 * Sends the Queue message again for every stale job. Safe because the consumer is idempotent:
 * it re-reads the job and a job that finished meanwhile is acked without work.
 */
export async function resendStaleJobs(env: Pick<Env, "DB" | "RENDER_QUEUE">, now = Date.now()): Promise<number> {
  const db = database(env);
  const cutoff = new Date(now - STALE_AFTER_MS);
  const stale = await db
    .select({ id: renderJobs.id })
    .from(renderJobs)
    .where(and(inArray(renderJobs.state, ACTIVE_JOB_STATES), lt(sql`coalesce(${renderJobs.startedAt}, ${renderJobs.createdAt})`, cutoff.getTime())));
  for (let i = 0; i < stale.length; i += BATCH) {
    const messages = stale.slice(i, i + BATCH).map(({ id }) => ({ body: { job_id: id } satisfies RenderMessage, contentType: "json" as const }));
    await env.RENDER_QUEUE.sendBatch(messages);
  }
  return stale.length;
}
