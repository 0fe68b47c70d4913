import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { CreatorView, creatorView } from "../creator-schemas";
import { claimCreator } from "../creators";
import { creatorFeedUrl } from "../../kernel/public-urls";
import { CreatorSlugParams } from "../schemas";

const CreatorClaimRequest = named(
  "CreatorClaimRequest",
  v.object({
    claim_token: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("The single-use token given at creation.")),
    email: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email(), v.maxLength(254), v.description("The creator's e-mail; recorded as the owner.")),
  }),
);

export const postCreatorClaim = route({
  method: "POST",
  path: "/v1/creators/:tenant_slug/claim",
  tag: "feeds",
  summary: "Claim a creator tenant with its single-use claim token",
  auth: "none",
  rateLimit: "read",
  params: CreatorSlugParams,
  body: CreatorClaimRequest,
  responses: {
    200: { description: "Claimed", schema: CreatorView },
    401: { description: "Wrong claim token" },
    404: { description: "No such creator" },
    409: { description: "Already claimed" },
  },
  async handle({ env, params, body }) {
    const creator = await claimCreator(env, params.tenant_slug, body.claim_token, body.email);
    return Response.json(creatorView(creator, creatorFeedUrl(env, creator.slug)), { headers: { "Cache-Control": "no-store" } });
  },
});
