import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { issueWebhookSecret } from "../../kernel/publisher-keys";
import { PublisherParams } from "../../kernel/fields";

const IssuedWebhookSecret = named(
  "IssuedWebhookSecret",
  v.object({
    publisher: v.string(),
    secret: v.pipe(v.string(), v.description("Shown only here: the HMAC key of x-legacy-signature for this publisher's articles.")),
    prefix: v.pipe(v.string(), v.description("The secret's first characters, to tell secrets apart.")),
  }),
);

export const issuePublisherWebhookSecret = route({
  method: "POST",
  path: "/v1/admin/publishers/:publisher/webhook-secret",
  tag: "admin",
  summary: "Issue a publisher's own publish-webhook signing secret (replaces its previous one at once)",
  auth: "admin",
  params: PublisherParams,
  responses: { 201: { description: "The new secret, shown once", schema: IssuedWebhookSecret } },
  async handle({ env, params }) {
    const { secret, prefix } = await issueWebhookSecret(env, params.publisher);
    return Response.json({ publisher: params.publisher, secret, prefix }, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
