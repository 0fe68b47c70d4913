import { config } from "../core/config";
import { ApiError } from "../core/errors";
import { route } from "../core/route";
import { parseJsonBody, readBodyBytes } from "../core/validate";
import { PublishRequest, PublishResponse } from "./publish-schema";
import { publishArticle } from "./publish-service";
import { verifyWebhook } from "./webhook-signature";

export const postPublishWebhook = route({
  method: "POST",
  path: "/v1/webhook/publish",
  tag: "narration",
  summary: "Publisher CMS webhook: upsert an article and pre-render its audio",
  description:
    "Signed with header x-legacy-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(PUBLISH_WEBHOOK_SECRET, \"<t>.<raw body>\")>. " +
    "A missing, malformed or wrong signature, or a timestamp more than 300 s from now, answers 401 and changes nothing. " +
    "Re-publishing updates the article and renders again only when the title, body or voice changed.",
  auth: "webhook_signature",
  rawBody: true,
  body: PublishRequest,
  responses: {
    200: { description: "The article was stored", schema: PublishResponse },
    401: { description: "Missing, malformed, wrong or stale signature" },
    409: { description: "The slug belongs to a listener-forwarded article" },
  },
  async handle({ env, request }) {
    // The signature covers the bytes sent, not a re-encoding of them.
    const bytes = await readBodyBytes(request);
    // Verify before parsing: nothing about an unsigned body is trusted, not even its shape.
    const ok = await verifyWebhook(config(env).PUBLISH_WEBHOOK_SECRET, request.headers.get("x-legacy-signature"), bytes);
    if (!ok) throw new ApiError("unauthorized", "missing, malformed, wrong or stale x-legacy-signature");
    const body = parseJsonBody(PublishRequest, new TextDecoder().decode(bytes));
    return Response.json(await publishArticle(env, body));
  },
});
