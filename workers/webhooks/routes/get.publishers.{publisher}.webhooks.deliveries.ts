import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { limitQuery, PublisherParams } from "../../kernel/fields";
import { deliveryLog, requirePublisher, WebhookDeliveryView } from "../endpoints";

const WebhookDeliveryLog = named("WebhookDeliveryLog", v.object({ deliveries: v.array(WebhookDeliveryView) }));

export const getWebhookDeliveries = route({
  method: "GET",
  path: "/v1/publishers/:publisher/webhooks/deliveries",
  tag: "webhooks",
  summary: "The delivery log: a publisher's latest webhook deliveries, with attempts and the last answer",
  description: "Requires that publisher's API key, the operator's API key or the admin token; another publisher's is a 404.",
  auth: "api_key_or_admin",
  rateLimit: "admin",
  params: PublisherParams,
  query: limitQuery(50),
  responses: { 200: { description: "Deliveries, newest first", schema: WebhookDeliveryLog } },
  async handle({ env, caller, params, query }) {
    const deliveries = await deliveryLog(env, requirePublisher(caller, params.publisher), query.limit);
    return Response.json({ deliveries }, { headers: { "Cache-Control": "no-store" } });
  },
});
