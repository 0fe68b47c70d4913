import { route } from "../../core/route";
import { signedDelivery } from "../../core/webhook-signature";
import { PublishRequest, PublishResponse } from "../publish-schema";
import { publishArticle } from "../publish-service";

export const postPublishWebhook = route({
  method: "POST",
  path: "/v1/webhook/publish",
  tag: "narration",
  summary: "Publisher CMS webhook: upsert an article and pre-render its audio",
  description:
    'Signed with header x-legacy-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>, where the secret is PUBLISH_WEBHOOK_SECRET ' +
    "or the publisher's own signing secret (POST /v1/admin/publishers/{publisher}/webhook-secret), which publishes that publisher's articles only. " +
    "A missing, malformed or wrong signature, or a timestamp more than 300 s from now, answers 401 and changes nothing. " +
    "Re-publishing updates the article and renders again only when the title, body or voice changed. " +
    "A delivery signed before the last one applied to the article answers 409 and changes nothing, so a captured " +
    "delivery replayed within the 300 s cannot bring back an older version.",
  auth: "webhook_signature",
  body: PublishRequest,
  responses: {
    200: { description: "The article was stored", schema: PublishResponse },
    409: {
      description:
        "The slug belongs to a listener-forwarded article, or to another publisher's article (publisher secret), or a newer delivery of the article was applied",
    },
  },
  async handle({ env, body, caller, request, ctx, requestId }) {
    // The route table verified the signature, so its time and MAC are the publisher's own.
    const delivery = signedDelivery(request.headers.get("x-legacy-signature"))!;
    return Response.json(await publishArticle(env, body, caller, { ...delivery, requestId }, ctx));
  },
});
