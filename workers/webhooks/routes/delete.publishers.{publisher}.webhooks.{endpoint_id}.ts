import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { deleteEndpoint, EndpointParams, requirePublisher } from "../endpoints";

export const deletePublisherWebhook = route({
  method: "DELETE",
  path: "/v1/publishers/:publisher/webhooks/:endpoint_id",
  tag: "webhooks",
  summary: "Remove a webhook endpoint; its deliveries still waiting are dropped",
  description: "Requires that publisher's API key, the operator's API key or the admin token; another publisher's endpoint is a 404.",
  auth: "api_key_or_admin",
  rateLimit: "admin",
  params: EndpointParams,
  responses: { 204: { description: "Removed" }, 404: { description: "No such endpoint of this publisher" } },
  async handle({ env, caller, params }) {
    if (!(await deleteEndpoint(env, requirePublisher(caller, params.publisher), params.endpoint_id)))
      throw new ApiError("not_found", "no such webhook endpoint");
    return new Response(null, { status: 204 });
  },
});
