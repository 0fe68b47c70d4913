import { and, eq, lte } from "drizzle-orm";
import { database, x402Reservations } from "../../db";
import type { AuthorizationKey } from "./authorization";
import { pruneCredits } from "./credits";

/**
 * The longest a reservation is kept: the call that took it settled (the token contract, or the local
 * facilitator's nonces, then refuse the authorization for ever) or gave it back long before.
 */
const KEPT_AT_MOST_MS = 24 * 3_600_000;

/**
 * Takes the authorization for one call: true for exactly one of any number of concurrent or later calls
 * that present it (one insert against the unique index), false for every other. A facilitator's verify
 * does not spend an authorization (only the transfer does, EIP-3009 `authorizationState`), so without
 * this one signed payment would verify, and run its work, once per concurrent request. The row is kept
 * until `validBefore` (seconds), when the authorization verifies no more, at most a day; the reservations
 * past theirs are pruned in the same batch (issue 40 item 7), and so are the credits past theirs (credits.ts).
 */
export async function reserve(env: Pick<Env, "DB">, key: AuthorizationKey, validBefore: bigint, now = Date.now()): Promise<boolean> {
  const db = database(env);
  const expiresAt = new Date(Math.min(Number(validBefore) * 1000, now + KEPT_AT_MOST_MS));
  const [, , [row]] = await db.batch([
    db.delete(x402Reservations).where(lte(x402Reservations.expiresAt, new Date(now))),
    pruneCredits(db, now),
    db
      .insert(x402Reservations)
      .values({ ...key, expiresAt })
      .onConflictDoNothing()
      .returning({ id: x402Reservations.id }),
  ]);
  return row !== undefined;
}

/** Gives the authorization back: the call failed before anything was settled or written, so it may be used again. */
export async function release(env: Pick<Env, "DB">, key: AuthorizationKey): Promise<void> {
  await database(env)
    .delete(x402Reservations)
    .where(
      and(
        eq(x402Reservations.network, key.network),
        eq(x402Reservations.asset, key.asset),
        eq(x402Reservations.payer, key.payer),
        eq(x402Reservations.nonce, key.nonce),
      ),
    );
}
