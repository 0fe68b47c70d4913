import { eq } from "drizzle-orm";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { creators, database } from "../../db/index";
import { creatorFeed, creatorFeedKey } from "../catalog";
import { creatorFeedPath } from "../../kernel/public-urls";
import { servePublicFeed } from "../public-feed";
import { CreatorSlugParams, FEED_METHODS, feedResponses } from "../schemas";

export const getCreatorFeed = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/creator/:tenant_slug.xml",
  tag: "feeds",
  summary: "A creator tenant's podcast feed",
  description:
    "Public articles of the creator with ready audio, newest first. Tenants are created by POST /v1/admin/creators and claimed by POST /v1/creators/{tenant_slug}/claim.",
  auth: "none",
  rateLimit: "feeds",
  params: CreatorSlugParams,
  responses: feedResponses({ 404: { description: "No such creator" } }),
  handle(input) {
    const slug = input.params.tenant_slug;
    return servePublicFeed(input, { key: creatorFeedKey(slug), path: creatorFeedPath(slug) }, async () => {
      const creator = await database(input.env).query.creators.findFirst({ where: eq(creators.slug, slug) });
      if (!creator) throw new ApiError("not_found", `no creator ${slug}`);
      return creatorFeed(creator);
    });
  },
});
