import { and, eq, isNull } from "drizzle-orm";
import { randomToken, sha256Hex } from "../core/crypto";
import { ApiError } from "../core/errors";
import { creators, database } from "../db";

/**
 * Creator tenants: an operator creates one (and gets a single-use claim token to hand to the
 * creator); the creator claims it with that token and an e-mail. Only the token's SHA-256 is
 * stored, and a claim consumes it in the same write that records the owner.
 */

export type Creator = typeof creators.$inferSelect;

/** Creates the tenant `slug`; 409 if the slug is taken. Returns the row and the claim token (shown once). */
export async function createCreator(env: Env, slug: string, name: string): Promise<{ creator: Creator; claimToken: string }> {
  const claimToken = randomToken(32);
  const [creator] = await database(env)
    .insert(creators)
    .values({ slug, name, claimTokenHash: await sha256Hex(claimToken) })
    .onConflictDoNothing({ target: creators.slug })
    .returning();
  if (!creator) throw new ApiError("conflict", `creator ${slug} already exists`);
  return { creator, claimToken };
}

/**
 * Claims tenant `slug` for `email` with `claimToken`. The update matches on the token's hash and an
 * unclaimed row, so of two concurrent claims one wins; 404 for an unknown slug, 409 once claimed,
 * 401 for a wrong token.
 */
export async function claimCreator(env: Env, slug: string, claimToken: string, email: string): Promise<Creator> {
  const db = database(env);
  const [claimed] = await db
    .update(creators)
    .set({ claimedByEmail: email, claimedAt: new Date(), claimTokenHash: null })
    .where(and(eq(creators.slug, slug), eq(creators.claimTokenHash, await sha256Hex(claimToken)), isNull(creators.claimedAt)))
    .returning();
  if (claimed) return claimed;
  const existing = await db.query.creators.findFirst({ where: eq(creators.slug, slug) });
  if (!existing) throw new ApiError("not_found", `no creator ${slug}`);
  if (existing.claimedAt) throw new ApiError("conflict", `creator ${slug} is already claimed`);
  throw new ApiError("unauthorized", "the claim token does not match");
}
