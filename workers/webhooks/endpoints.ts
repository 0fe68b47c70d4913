import { and, desc, eq } from "drizzle-orm";
import * as v from "valibot";
import { type ApiCaller, mayActFor } from "../core/auth";
import { ApiError, ValidationError } from "../core/errors";
import { inDevelopment, isLoopback, isPrivateHost } from "../kernel/guarded-fetch";
import { named } from "../core/schema-registry";
import { database, DELIVERY_STATES, webhookDeliveries, webhookEndpoints } from "../db";
import { decryptToken, mintToken } from "../kernel/listener-tokens";
import { PublisherParams } from "../kernel/fields";
import { WEBHOOK_EVENTS } from "../kernel/webhook-events";

/**
 * A publisher's outbound webhook endpoints (docs/publishers.md "Webhooks"): where the platform POSTs
 * narration.ready, narration.failed and narration.awaiting_review, signed by the Standard Webhooks
 * specification (workers/webhooks/deliver.ts).
 */

/** Endpoints one publisher may register: each is a stream of deliveries to sign and retry. */
export const MAX_ENDPOINTS = 10;

/** The path of one endpoint: /v1/publishers/{publisher}/webhooks/{endpoint_id} and its studio page's action. */
export const EndpointParams = v.object({
  ...PublisherParams.entries,
  endpoint_id: v.pipe(v.string(), v.maxLength(64), v.description("The endpoint's id (ep_...).")),
});

/** The publisher of the path, when the caller acts for it; another publisher's webhooks are a 404 (docs/articles.md "Visibility"). */
export function requirePublisher(caller: ApiCaller, publisher: string): string {
  if (!mayActFor(caller, publisher)) throw new ApiError("not_found", "no webhooks of that publisher for this key");
  return publisher;
}

/**
 * Why a delivery may not go to `url`, or null. It must be https on a public name: the platform POSTs
 * there from its own network, so this machine, private networks and IP literals are refused, as for
 * every address a caller names (kernel/guarded-fetch.ts); in development http on this machine too,
 * so a receiver run here works.
 */
function urlProblem(env: object, url: URL): string | null {
  const local = isLoopback(url.hostname) && inDevelopment(env);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) return "must be https (http only on this machine in development)";
  if (isPrivateHost(url.hostname) && !local) return "must be a public host name, not an address, this machine or a private network";
  return null;
}

const EndpointUrl = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.url("must be an absolute URL"),
  v.check((u) => {
    const url = URL.parse(u);
    return !url || (!url.username && !url.password && !url.hash);
  }, "must carry no credentials and no fragment"),
  v.description("Where deliveries are POSTed: https on a public host name (in development, http on 127.0.0.1 too)."),
);

const EventList = v.pipe(
  v.optional(v.pipe(v.array(v.picklist(WEBHOOK_EVENTS)), v.minLength(1), v.maxLength(WEBHOOK_EVENTS.length)), [...WEBHOOK_EVENTS]),
  v.transform((events) => [...new Set(events)]),
  v.description(`The events it receives; all of them (${WEBHOOK_EVENTS.join(", ")}) when absent.`),
);

/** The body of POST /v1/publishers/{publisher}/webhooks; the host rule needs the deployment, so `createEndpoint` checks it. */
export const CreateWebhookRequest = named("CreateWebhookRequest", v.object({ url: EndpointUrl, events: EventList }));

export const WebhookEndpointView = named(
  "WebhookEndpoint",
  v.object({
    id: v.string(),
    publisher: v.string(),
    url: v.string(),
    events: v.array(v.picklist(WEBHOOK_EVENTS)),
    created_at: v.string(),
  }),
);

export const CreatedWebhookEndpoint = named(
  "CreatedWebhookEndpoint",
  v.object({
    ...WebhookEndpointView.entries,
    secret: v.pipe(
      v.string(),
      v.description("Shown only here: the Standard Webhooks signing secret (whsec_...), which receivers verify webhook-signature with."),
    ),
  }),
);

export const WebhookDeliveryView = named(
  "WebhookDelivery",
  v.object({
    id: v.pipe(v.string(), v.description("The message id (the webhook-id header), the same on every attempt.")),
    endpoint_id: v.string(),
    event: v.picklist(WEBHOOK_EVENTS),
    state: v.pipe(
      v.picklist(DELIVERY_STATES),
      v.description("pending: waiting for its next attempt; delivered: a 2xx came back; failed: every attempt failed."),
    ),
    attempts: v.number(),
    last_status: v.pipe(v.nullable(v.number()), v.description("The HTTP status of the last attempt; null when none answered.")),
    last_error: v.nullable(v.string()),
    created_at: v.string(),
    delivered_at: v.nullable(v.string()),
  }),
);

type EndpointRow = typeof webhookEndpoints.$inferSelect;

function endpointView(row: EndpointRow): v.InferOutput<typeof WebhookEndpointView> {
  return {
    id: row.id,
    publisher: row.publisher,
    url: row.url,
    events: row.events as v.InferOutput<typeof WebhookEndpointView>["events"],
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The Standard Webhooks secret of a stored token: whsec_ and the base64 of the key, here the 43 ASCII
 * characters of a 256-bit random token (kernel/listener-tokens.ts mintToken), kept encrypted.
 */
function signingSecret(token: string): string {
  return `whsec_${btoa(token)}`;
}

/** The signing secret of an endpoint, for deliver.ts. */
export async function secretOf(env: object, secretEncrypted: string): Promise<string> {
  return signingSecret(await decryptToken(env, secretEncrypted));
}

/** Registers an endpoint; its secret is returned once. 422 for a URL the rule above refuses, 409 past MAX_ENDPOINTS. */
export async function createEndpoint(env: Env, publisher: string, body: v.InferOutput<typeof CreateWebhookRequest>) {
  const problem = urlProblem(env, new URL(body.url));
  if (problem) throw new ValidationError([{ loc: ["body", "url"], msg: problem, type: "value_error" }]);
  const db = database(env);
  const existing = await db.$count(webhookEndpoints, eq(webhookEndpoints.publisher, publisher));
  if (existing >= MAX_ENDPOINTS) throw new ApiError("conflict", `a publisher has at most ${MAX_ENDPOINTS} webhook endpoints`);
  const minted = await mintToken(env);
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ id: `ep_${crypto.randomUUID().replaceAll("-", "")}`, publisher, url: body.url, events: body.events, secretEncrypted: minted.encrypted })
    .returning();
  return { ...endpointView(row), secret: signingSecret(minted.token) };
}

/** The publisher's endpoints, oldest first, without their secrets. */
export async function listEndpoints(env: Env, publisher: string) {
  const rows = await database(env).select().from(webhookEndpoints).where(eq(webhookEndpoints.publisher, publisher)).orderBy(webhookEndpoints.createdAt);
  return rows.map(endpointView);
}

/** Removes an endpoint: its pending deliveries are dropped when their turn comes (deliver.ts). False when the publisher has no such endpoint. */
export async function deleteEndpoint(env: Env, publisher: string, id: string): Promise<boolean> {
  const gone = await database(env)
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.publisher, publisher)))
    .returning({ id: webhookEndpoints.id });
  return gone.length > 0;
}

/** The publisher's latest deliveries, newest first: the delivery log. */
export async function deliveryLog(env: Env, publisher: string, limit: number) {
  const rows = await database(env)
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.publisher, publisher))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(limit);
  return rows.map(
    (r): v.InferOutput<typeof WebhookDeliveryView> => ({
      id: r.id,
      endpoint_id: r.endpointId,
      event: r.event as v.InferOutput<typeof WebhookDeliveryView>["event"],
      state: r.state,
      attempts: r.attempts,
      last_status: r.lastStatus,
      last_error: r.lastError,
      created_at: r.createdAt.toISOString(),
      delivered_at: r.deliveredAt?.toISOString() ?? null,
    }),
  );
}
