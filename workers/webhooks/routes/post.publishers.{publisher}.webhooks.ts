import { route } from "../../core/route";
import { PublisherParams } from "../../kernel/fields";
import { CreatedWebhookEndpoint, CreateWebhookRequest, createEndpoint, MAX_ENDPOINTS, requirePublisher } from "../endpoints";

export const postPublisherWebhook = route({
  method: "POST",
  path: "/v1/publishers/:publisher/webhooks",
  tag: "webhooks",
  summary: "Register a webhook endpoint: the platform POSTs narration events there, signed by Standard Webhooks",
  description:
    "Requires that publisher's API key (Authorization: Bearer npk_...), the operator's API key or the admin token; another publisher's is a 404. " +
    "The answer carries the endpoint's signing secret (whsec_...) once. Each delivery carries webhook-id, webhook-timestamp and webhook-signature " +
    `(Standard Webhooks, v1); failures are retried with backoff for about 21 hours. At most ${MAX_ENDPOINTS} endpoints per publisher.`,
  auth: "api_key_or_admin",
  rateLimit: "admin",
  params: PublisherParams,
  body: CreateWebhookRequest,
  responses: {
    201: { description: "The endpoint and its secret, shown once", schema: CreatedWebhookEndpoint },
    409: { description: `The publisher has ${MAX_ENDPOINTS} endpoints already` },
  },
  async handle({ env, caller, params, body }) {
    const created = await createEndpoint(env, requirePublisher(caller, params.publisher), body);
    return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
