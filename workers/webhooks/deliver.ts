import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import * as v from "valibot";
import { database, webhookDeliveries, webhookEndpoints } from "../db";
import { WebhookMessage } from "../kernel/webhook-events";
import { secretOf } from "./endpoints";

/**
 * The webhook Queue consumer (docs/publishers.md "Webhooks"): one message is one delivery, whose payload
 * and log live in D1 (webhook_deliveries). Each attempt is signed afresh by the Standard Webhooks
 * specification (webhook-id: the delivery's id, the same on every attempt, so a receiver can drop a
 * repeat; webhook-timestamp; webhook-signature v1, HMAC-SHA256 over "id.timestamp.body"), with the
 * specification's own library. A 2xx is delivered; anything else is retried with backoff, and after
 * max_retries (wrangler.toml) the dead-letter queue marks the delivery failed. Redirects are not
 * followed (an endpoint may not send deliveries on to a host its URL was not checked for), and a
 * receiver has WEBHOOK_TIMEOUT_MS to answer.
 */

export const WEBHOOK_QUEUE_NAME = "narration-webhooks";
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * Delay before the next attempt after the nth failed one: 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h
 * (Queues delay a message by 12 hours at most). With max_retries 7 the attempts span about 21 hours.
 */
const BACKOFF_SECONDS = [10, 60, 300, 1800, 7200, 21600, 43200];

export function backoffSeconds(attempts: number): number {
  return BACKOFF_SECONDS[Math.min(Math.max(attempts, 1), BACKOFF_SECONDS.length) - 1];
}

/** The webhook queue's batches and its dead-letter queue's. */
export async function consumeWebhooks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const dead = batch.queue !== WEBHOOK_QUEUE_NAME;
  await Promise.all(batch.messages.map((message) => (dead ? giveUp(env, message) : deliver(env, message))));
}

/** A delivery whose every attempt failed. */
async function giveUp(env: Env, message: Message<unknown>): Promise<void> {
  const parsed = v.safeParse(WebhookMessage, message.body);
  if (parsed.success) {
    await database(env)
      .update(webhookDeliveries)
      .set({ state: "failed" })
      .where(and(eq(webhookDeliveries.id, parsed.output.delivery_id), eq(webhookDeliveries.state, "pending")));
  }
  message.ack();
}

async function deliver(env: Env, message: Message<unknown>): Promise<void> {
  const parsed = v.safeParse(WebhookMessage, message.body);
  if (!parsed.success) {
    console.error("webhook queue: malformed message dropped");
    message.ack();
    return;
  }
  const db = database(env);
  const id = parsed.output.delivery_id;
  const target = await db
    .select({
      payload: webhookDeliveries.payload,
      state: webhookDeliveries.state,
      url: webhookEndpoints.url,
      secretEncrypted: webhookEndpoints.secretEncrypted,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, id))
    .get();
  // Delivered already (a queue delivers at least once), or its endpoint was deleted.
  if (target?.state !== "pending") {
    message.ack();
    return;
  }
  const sent = await post(target.url, id, await secretOf(env, target.secretEncrypted), target.payload);
  const delivered = sent.status !== null && sent.status >= 200 && sent.status < 300;
  await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastStatus: sent.status,
      lastError: delivered ? null : sent.error,
      ...(delivered ? { state: "delivered" as const, deliveredAt: new Date() } : {}),
    })
    .where(eq(webhookDeliveries.id, id));
  if (delivered) message.ack();
  else message.retry({ delaySeconds: backoffSeconds(message.attempts) });
}

/** One signed POST; its status, or null and why when nothing answered. */
async function post(url: string, id: string, secret: string, payload: string): Promise<{ status: number | null; error: string | null }> {
  const at = new Date();
  try {
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Narration-Webhooks/1",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": new Webhook(secret).sign(id, at, payload),
      },
      body: payload,
    });
    await response.body?.cancel();
    return { status: response.status, error: response.ok ? null : `answered ${response.status}` };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return { status: null, error: timedOut ? `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : "could not connect" };
  }
}
