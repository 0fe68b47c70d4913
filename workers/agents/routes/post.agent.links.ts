import { route } from "../../core/route";
import { LINK_DESCRIPTION, LinkAccepted, linkAccepted, LinkRequest } from "../../articles/link-schemas";
import { addLink } from "../../articles/links";
import { requireScope } from "../../oauth/bearer";
import { callerOf } from "../caller";
import { actingListener } from "../listener";

/**
 * POST /v1/agent/links: an agent the listener granted links:write adds a page to the listener's private
 * feed, as the listener does (docs/listeners.md "Add a link"). REST only: MCP keeps its six tools.
 */
export const postAgentLinks = route({
  method: "POST",
  path: "/v1/agent/links",
  tag: "agents",
  operationId: "add_link",
  summary: "add_link: narrate a web page into the acting listener's private feed (OAuth bearer token with links:write)",
  description: LINK_DESCRIPTION,
  auth: "bearer",
  rateLimit: "forward",
  body: LinkRequest,
  responses: {
    202: { description: "The article exists and its narration is queued (or was already added)", schema: LinkAccepted },
    401: { description: "No bearer token, or an invalid, expired or revoked one", headers: { "WWW-Authenticate": "Bearer resource_metadata=..." } },
    403: { description: "A bearer token without links:write", headers: { "WWW-Authenticate": 'Bearer error="insufficient_scope", scope=...' } },
    429: { description: "The address's hourly budget is spent", headers: { "Retry-After": "seconds" } },
  },
  async handle({ grant, request, env, ctx, body, requestId }) {
    requireScope(env, grant, "links:write");
    const listener = await actingListener(env, callerOf(grant, request, requestId), "add_link");
    return linkAccepted(await addLink(env, ctx, requestId, listener, new URL(body.url)));
  },
});
