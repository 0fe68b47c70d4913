import { route } from "../../core/route";
import { TokenParams } from "../../kernel/fields";
import { LINK_DESCRIPTION, LinkAccepted, linkAccepted, LinkRequest } from "../link-schemas";
import { addLink } from "../links";

/** POST /v1/listeners/{token}/links: a page by its address, narrated into the listener's private feed (docs/listeners.md "Add a link"). */
export const postLink = route({
  method: "POST",
  path: "/v1/listeners/:token/links",
  tag: "articles",
  summary: "Add a web page by its link: the article is fetched, narrated and put in the listener's private feed",
  description: LINK_DESCRIPTION,
  auth: "listener_token",
  rateLimit: "forward",
  params: TokenParams,
  body: LinkRequest,
  responses: {
    202: { description: "The article exists and its narration is queued (or was already added)", schema: LinkAccepted },
    404: { description: "Unknown listener token" },
    429: { description: "The address's hourly budget is spent", headers: { "Retry-After": "seconds" } },
  },
  async handle({ listener, env, ctx, body, requestId }) {
    return linkAccepted(await addLink(env, ctx, requestId, listener, new URL(body.url)));
  },
});
