import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { revokePublisherKey } from "../../kernel/publisher-keys";
import { PublisherParams } from "../../kernel/fields";

const KeyParams = v.object({
  ...PublisherParams.entries,
  key_id: v.pipe(v.string(), v.regex(/^\d{1,15}$/, "is not a key id"), v.transform(Number), v.description("From the key list.")),
});

export const revokePublisherKeyRoute = route({
  method: "DELETE",
  path: "/v1/admin/publishers/:publisher/keys/:key_id",
  tag: "admin",
  summary: "Revoke a publisher's API key: the very next request with it is refused",
  auth: "admin",
  params: KeyParams,
  responses: {
    200: { description: "Revoked", schema: v.object({ revoked: v.literal(true) }) },
    404: { description: "No unrevoked key with that id for that publisher" },
  },
  async handle({ env, params }) {
    if (!(await revokePublisherKey(env, params.publisher, params.key_id))) throw new ApiError("not_found", "no such key");
    return Response.json({ revoked: true });
  },
});
