import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { CreatorSlug, CreatorView, creatorView } from "../../feeds/creator-schemas";
import { createCreator } from "../../feeds/creators";
import { creatorClaimUrl, creatorFeedUrl } from "../../kernel/public-urls";

const CreatorCreateRequest = named(
  "CreatorCreateRequest",
  v.object({
    slug: CreatorSlug,
    name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(120), v.description("Display name: the feed's title and itunes:author.")),
  }),
);

const CreatorCreateResponse = named(
  "CreatorCreateResponse",
  v.object({
    creator: CreatorView,
    claim_token: v.pipe(v.string(), v.description("Single-use; shown only here. Give it to the creator to claim the tenant.")),
    claim_url: v.pipe(v.string(), v.description("Where the creator POSTs the claim.")),
  }),
);

export const postAdminCreator = route({
  method: "POST",
  path: "/v1/admin/creators",
  tag: "admin",
  summary: "Create a creator tenant (its feed exists at once) and get its claim token",
  auth: "admin",
  body: CreatorCreateRequest,
  responses: {
    201: { description: "Created", schema: CreatorCreateResponse },
    409: { description: "The slug is taken" },
  },
  async handle({ env, body }) {
    const { creator, claimToken } = await createCreator(env, body.slug, body.name);
    const feedUrl = creatorFeedUrl(env, creator.slug);
    const out: v.InferOutput<typeof CreatorCreateResponse> = {
      creator: creatorView(creator, feedUrl),
      claim_token: claimToken,
      claim_url: creatorClaimUrl(env, creator.slug),
    };
    return Response.json(out, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
