import * as v from "valibot";
import { named } from "../core/schema-registry";

export const CreatorSlug = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9-]{1,62}$/, "2 to 63 characters: lowercase letters, digits and hyphens"),
  v.description("URL slug of the creator tenant; part of its feed URL forever."),
);

export const CreatorView = named(
  "CreatorView",
  v.object({
    slug: CreatorSlug,
    name: v.string(),
    feed_url: v.pipe(v.string(), v.description("The creator's public podcast feed.")),
    claimed: v.boolean(),
    claimed_by_email: v.nullable(v.string()),
    claimed_at: v.nullable(v.pipe(v.string(), v.description("ISO 8601 time of the claim."))),
  }),
);

/** The public view of a creator row. */
export function creatorView(
  c: { slug: string; name: string; claimedByEmail: string | null; claimedAt: Date | null },
  feedUrl: string,
): v.InferOutput<typeof CreatorView> {
  return {
    slug: c.slug,
    name: c.name,
    feed_url: feedUrl,
    claimed: c.claimedAt !== null,
    claimed_by_email: c.claimedByEmail,
    claimed_at: c.claimedAt?.toISOString() ?? null,
  };
}
