import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { PublisherParams } from "../../kernel/fields";
import { listEndpoints, requirePublisher, WebhookEndpointView } from "../endpoints";

const WebhookEndpointList = named("WebhookEndpointList", v.object({ endpoints: v.array(WebhookEndpointView) }));

export const listPublisherWebhooks = route({
  method: "GET",
  path: "/v1/publishers/:publisher/webhooks",
  tag: "webhooks",
  summary: "A publisher's webhook endpoints (never their secrets)",
  description: "Requires that publisher's API key, the operator's API key or the admin token; another publisher's is a 404.",
  auth: "api_key_or_admin",
  rateLimit: "admin",
  params: PublisherParams,
  responses: { 200: { description: "The endpoints, oldest first", schema: WebhookEndpointList } },
  async handle({ env, caller, params }) {
    const endpoints = await listEndpoints(env, requirePublisher(caller, params.publisher));
    return Response.json({ endpoints }, { headers: { "Cache-Control": "no-store" } });
  },
});
