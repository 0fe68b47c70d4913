import { and, eq } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { database, listeners } from "../db";
import { mintToken, type Listener } from "../kernel/listener-tokens";

/**
 * Subscriptions held by a wallet (docs/agents/payments.md "Paying agents": a wallet agent's subscribe_topic needs no e-mail).
 * A listener row needs a unique e-mail, so a wallet's row carries a placeholder under the `.invalid`
 * top-level domain, which never resolves and so can never receive mail (RFC 2606 §2, RFC 6761 §6.4),
 * and the wallet's checksummed address in wallet_address. The row is inactive: `active` only gates
 * the daily digest mail (docs/api-conventions.md "Inactive listeners"), and a wallet has no mailbox to send it to.
 */

/** The placeholder e-mail of the listener row `address` holds. */
export function walletEmail(address: string): string {
  return `${address.toLowerCase()}@wallet.invalid`;
}

/** The listener the wallet at `address` holds, if it ever subscribed. */
export function findWalletListener(env: Pick<Env, "DB">, address: string): Promise<Listener | undefined> {
  return database(env).query.listeners.findFirst({
    where: and(eq(listeners.email, walletEmail(address)), eq(listeners.walletAddress, address)),
  });
}

/**
 * The listener the wallet at `address` holds, created on its first subscription. One upsert, so
 * concurrent first calls give one row. The e-mail endpoints refuse .invalid addresses, and a row with
 * the placeholder e-mail but another (or no) wallet is still never taken over.
 */
export async function walletListener(env: Pick<Env, "DB"> & object, address: string): Promise<Listener> {
  const [account, feed] = await Promise.all([mintToken(env), mintToken(env)]);
  const [row] = await database(env)
    .insert(listeners)
    .values({
      email: walletEmail(address),
      walletAddress: address,
      active: false,
      tokenHash: account.hash,
      tokenEncrypted: account.encrypted,
      privateFeedTokenHash: feed.hash,
      privateFeedTokenEncrypted: feed.encrypted,
    })
    .onConflictDoUpdate({ target: listeners.email, set: { walletAddress: address }, setWhere: eq(listeners.walletAddress, address) })
    .returning();
  if (!row) throw new ApiError("conflict", `the subscription address of wallet ${address} is taken by an e-mail subscription`);
  return row;
}
