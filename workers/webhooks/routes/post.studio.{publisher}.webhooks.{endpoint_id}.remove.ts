import { ApiError } from "../../core/errors";
import { seeOther } from "../../web/page";
import { studioPage } from "../../studio/layout";
import { publisherPath } from "../../studio/paths";
import { deleteEndpoint, EndpointParams } from "../endpoints";

/** POST {WEB_URL}/studio/{publisher}/webhooks/{endpoint_id}/remove: an editor removes an endpoint. */
export const postStudioWebhookRemove = studioPage({
  method: "POST",
  path: "/studio/:publisher/webhooks/:endpoint_id/remove",
  summary: "Removes a webhook endpoint",
  params: EndpointParams,
  role: "editor",
  async handle({ env, studio, params }) {
    if (!(await deleteEndpoint(env, studio.publisher, params.endpoint_id))) throw new ApiError("not_found", "There is no such endpoint of this publisher.");
    return seeOther(publisherPath(studio.publisher, "/webhooks"));
  },
});
