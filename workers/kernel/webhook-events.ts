import { eq } from "drizzle-orm";
import * as v from "valibot";
import { baseUrl } from "../core/config";
import { articles, database, renderJobs, webhookDeliveries, webhookEndpoints } from "../db";

/**
 * Events a publisher's webhook endpoints receive (docs/publishers.md "Webhooks"). Emitted where the
 * state they report is set: narration.ready and narration.failed when a render job of an article ends
 * (narration/render-store.ts), narration.awaiting_review where review before release holds a finished
 * narration back (announceJob(..., "narration.awaiting_review")).
 */
export const WEBHOOK_EVENTS = ["narration.ready", "narration.failed", "narration.awaiting_review"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A Standard Webhooks message id: unique, and the same on every retry of one delivery. */
function messageId(): string {
  return `msg_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * The message of the webhook queue: one delivery (one event for one endpoint), its payload kept in D1;
 * written here, read by the consumer (webhooks/deliver.ts), which drops anything else.
 */
export const WebhookMessage = v.object({ delivery_id: v.pipe(v.string(), v.regex(/^msg_[0-9a-f]{32}$/)) });
export type WebhookMessage = v.InferOutput<typeof WebhookMessage>;

/**
 * Records one delivery of `type` to each endpoint of `publisher` that takes it, in one batch, and
 * queues them. A publisher without endpoints costs one indexed read.
 */
export async function announce(env: Pick<Env, "DB" | "WEBHOOK_QUEUE">, publisher: string, type: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  const db = database(env);
  const endpoints = (
    await db.select({ id: webhookEndpoints.id, events: webhookEndpoints.events }).from(webhookEndpoints).where(eq(webhookEndpoints.publisher, publisher))
  ).filter((e) => e.events.includes(type));
  if (endpoints.length === 0) return;
  const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  const rows = endpoints.map((e) => ({ id: messageId(), endpointId: e.id, publisher, event: type, payload, state: "pending" as const }));
  const [first, ...rest] = rows.map((row) => db.insert(webhookDeliveries).values(row));
  await db.batch([first, ...rest]);
  await env.WEBHOOK_QUEUE.sendBatch(rows.map((row) => ({ body: { delivery_id: row.id } satisfies WebhookMessage })));
}

/**
 * Announces how the render job `jobId` of an article ended: `data` names the article, the job, the voice
 * and engine that spoke, whether it was a fallback, and the error of a failure. A job without an article
 * (POST /v1/render's text) belongs to no publisher and announces nothing.
 */
export async function announceJob(env: Pick<Env, "DB" | "WEBHOOK_QUEUE">, jobId: string, type: WebhookEvent): Promise<void> {
  const row = await database(env)
    .select({
      slug: articles.slug,
      title: articles.title,
      publisher: articles.publisher,
      url: articles.url,
      voice: renderJobs.voice,
      engine: renderJobs.provider,
      fallback: renderJobs.fallback,
      error: renderJobs.error,
      durationSeconds: articles.listenSeconds,
    })
    .from(renderJobs)
    .innerJoin(articles, eq(articles.id, renderJobs.articleId))
    .where(eq(renderJobs.id, jobId))
    .get();
  if (!row) return;
  await announce(env, row.publisher, type, {
    job_id: jobId,
    article: { slug: row.slug, title: row.title, url: row.url },
    // The audio endpoint, not a file URL: it answers the current audio URL to whoever may have it.
    audio: type === "narration.failed" ? null : `${baseUrl(env)}/v1/articles/${encodeURIComponent(row.slug)}/audio`,
    voice: row.voice,
    engine: row.engine,
    fallback: row.fallback,
    duration_seconds: type === "narration.failed" ? null : row.durationSeconds,
    error: type === "narration.failed" ? row.error : null,
  });
}
