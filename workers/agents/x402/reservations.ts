import { and, eq } from "drizzle-orm";
import { database, x402Reservations } from "../../db";
import type { AuthorizationKey } from "./authorization";

/**
 * Takes the authorization for one call: true for exactly one of any number of concurrent or later calls
 * that present it (one insert against the unique index), false for every other. A facilitator's verify
 * does not spend an authorization (only the transfer does, EIP-3009 `authorizationState`), so without
 * this one signed payment would verify, and run its work, once per concurrent request.
 */
export async function reserve(env: Pick<Env, "DB">, key: AuthorizationKey): Promise<boolean> {
  const [row] = await database(env).insert(x402Reservations).values(key).onConflictDoNothing().returning({ id: x402Reservations.id });
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
