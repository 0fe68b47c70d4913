import { and, eq, isNull, sql } from "drizzle-orm";
import { config } from "../core/config";
import { ApiError } from "../core/errors";
import { agentFeeds, articles, database, floOverrides, ledgerEntries, listeners, magicTokens, plays, renderJobs, webSessions } from "../db";
import { nowMs } from "../db/tables/columns";
import { sha256Hex } from "../core/crypto";
import { decryptToken, mintToken, type Listener } from "../kernel/listener-tokens";
import { privateFeedUrl } from "../kernel/public-urls";
import { revokeAllGrants } from "../oauth/grants";
import { endAllSessions } from "../core/web-session";

/**
 * The listener account: subscription, the two credentials and their lifecycle. Shared by the
 * listener endpoints, the magic-link exchange, the digest, the agent tools and the listener's web pages.
 */

/** The private feed URL lives in public-urls.ts; this re-export serves importers not yet moved there. */
export { privateFeedUrl as feedUrl } from "../kernel/public-urls";

/**
 * What a subscribe did. `issued`: the account was created now, or a repeat carried the Idempotency-Key
 * of the creating request within SUBSCRIBE_IDEMPOTENCY_SECONDS (a retry, a concurrent request), and the
 * caller gets its token. `known`: anyone else naming the address, who gets no credential while nothing
 * changes (DESIGN.md "Contracts added in turn 4", Security).
 */
export type Subscription = { outcome: "issued"; created: boolean; listener: Listener; token: string; feedUrl: string } | { outcome: "known" };

/**
 * Subscribes `email` to `verticals` in one upsert, so concurrent subscribes of one address give one row
 * and one token. SPEC.md part 4 makes subscribe idempotent on the e-mail (same token, verticals
 * replaced); handing the token to every repeat would hand the account to anyone who knows the address.
 * So the row keeps the SHA-256 of the creating request's `idempotencyKey`, and the upsert updates and
 * returns the row only for a repeat carrying that key, inside the window after the creation (measured
 * on D1's clock like `created_at` itself), while the address is unproven: once its owner signed in,
 * the credentials are theirs alone, whoever created the row.
 */
export async function subscribe(env: Pick<Env, "DB"> & object, email: string, verticals: string[], idempotencyKey?: string): Promise<Subscription> {
  const windowMs = config(env).SUBSCRIBE_IDEMPOTENCY_SECONDS * 1000;
  const [{ account, feed, columns }, keyHash] = await Promise.all([mintCredentials(env), idempotencyKey ? sha256Hex(idempotencyKey) : null]);
  const [row] = await database(env)
    .insert(listeners)
    .values({ email, verticals, ...columns, subscribeKeyHash: keyHash })
    .onConflictDoUpdate({
      target: listeners.email,
      set: { verticals, updatedAt: nowMs },
      // A DO UPDATE whose WHERE is false writes nothing and RETURNING yields no row (SQLite "UPSERT").
      setWhere: and(
        sql`${listeners.createdAt} > ${nowMs} - ${windowMs}`,
        keyHash ? eq(listeners.subscribeKeyHash, keyHash) : sql`0`,
        isNull(listeners.emailProvenAt),
      ),
    })
    .returning();
  if (!row) return { outcome: "known" };
  const created = row.tokenHash === account.hash;
  const token = created ? account.token : await decryptToken(env, row.tokenEncrypted);
  const feedToken = created ? feed.token : await privateFeedToken(env, row);
  return { outcome: "issued", created, listener: row, token, feedUrl: privateFeedUrl(env, feedToken) };
}

/**
 * A listener's two credentials freshly minted (kernel/listener-tokens.ts): the account token and the
 * private feed token, with the columns that store them (hashes for lookup, encrypted copies).
 */
async function mintCredentials(env: object) {
  const [account, feed] = await Promise.all([mintToken(env), mintToken(env)]);
  const columns = {
    tokenHash: account.hash,
    tokenEncrypted: account.encrypted,
    privateFeedTokenHash: feed.hash,
    privateFeedTokenEncrypted: feed.encrypted,
  };
  return { account, feed, columns };
}

/**
 * The owner proves the address: called on every listener magic-link sign-in (web or API exchange).
 * The first proof replaces what whoever held the account before could use: the account token and the
 * feed URL (both minted before anyone proved the address, e.g. by someone who subscribed it first),
 * the agents they allowed and the agent records, and the intake address they named. One conditional
 * write, so two sign-ins racing rotate once. `rotated` says whether this was the first proof.
 */
export async function proveAddress(env: Env, listenerId: number): Promise<{ listener: Listener; rotated: boolean }> {
  const db = database(env);
  const { columns } = await mintCredentials(env);
  const [proven] = await db
    .update(listeners)
    .set({
      ...columns,
      intakeListenerEmail: null,
      intakeEmailConfirmedAt: null,
      intakeEmailClaimedAt: null,
      emailProvenAt: nowMs,
      updatedAt: nowMs,
    })
    .where(and(eq(listeners.id, listenerId), isNull(listeners.emailProvenAt)))
    .returning();
  if (proven) {
    await Promise.all([revokeAllGrants(env, listenerId), db.delete(agentFeeds).where(eq(agentFeeds.listenerId, listenerId))]);
    return { listener: proven, rotated: true };
  }
  const listener = await db.query.listeners.findFirst({ where: eq(listeners.id, listenerId) });
  if (!listener) throw new ApiError("not_found", "no listener with this token");
  return { listener, rotated: false };
}

/**
 * The listener's private feed token. It is minted with the subscription; a listener row without one
 * (created before feed tokens existed) gets it on first request, and it is stable until a rotate.
 */
export async function privateFeedToken(env: Pick<Env, "DB"> & object, listener: Listener): Promise<string> {
  if (listener.privateFeedTokenEncrypted) return decryptToken(env, listener.privateFeedTokenEncrypted);
  const minted = await mintToken(env);
  const db = database(env);
  const won = await db
    .update(listeners)
    .set({ privateFeedTokenHash: minted.hash, privateFeedTokenEncrypted: minted.encrypted })
    .where(and(eq(listeners.id, listener.id), isNull(listeners.privateFeedTokenHash)))
    .returning({ id: listeners.id });
  if (won.length > 0) return minted.token;
  // A concurrent first call minted it first: hand back that one so the URL stays stable.
  const current = await db.query.listeners.findFirst({ where: eq(listeners.id, listener.id) });
  if (!current?.privateFeedTokenEncrypted) throw new ApiError("not_found", "no listener with this token");
  return decryptToken(env, current.privateFeedTokenEncrypted);
}

/** Replaces both credentials; the old account token and old feed URL stop working with this write. */
async function rotate(env: Pick<Env, "DB"> & object, listener: Listener) {
  const { account, feed, columns } = await mintCredentials(env);
  const changed = await database(env)
    .update(listeners)
    .set({ ...columns, updatedAt: nowMs })
    // Only the holder of the current token rotates: of two concurrent rotates, the second gets 404.
    .where(and(eq(listeners.id, listener.id), eq(listeners.tokenHash, listener.tokenHash)))
    .returning({ id: listeners.id });
  if (changed.length === 0) throw new ApiError("not_found", "no listener with this token");
  return { token: account.token, feedUrl: privateFeedUrl(env, feed.token) };
}

/**
 * Rotation as the listener asks for it (API or web page): new credentials, and since a rotation says
 * the old ones may be known to someone else, every agent the listener allowed and every signed-in
 * browser loses access with it (docs/agents/oauth.md "OAuth for agents").
 */
export async function rotateCredentials(env: Env, listener: Listener) {
  const rotated = await rotate(env, listener);
  await Promise.all([revokeAllGrants(env, listener.id), endAllSessions(env, listener.id)]);
  return rotated;
}

/** The listener leaves: grants first, so that should the delete then fail, no agent keeps acting for them. */
export async function closeAccount(env: Env, listenerId: number): Promise<void> {
  await revokeAllGrants(env, listenerId);
  await deleteListener(env, listenerId);
}

/**
 * Hard delete in one batch. The children carry no ON DELETE CASCADE (see db/tables/listeners.ts),
 * so the listener's own rows go and the accounting rows keep their amounts with the link nulled.
 */
async function deleteListener(env: Pick<Env, "DB">, listenerId: number): Promise<void> {
  const db = database(env);
  await db.batch([
    db.delete(magicTokens).where(eq(magicTokens.listenerId, listenerId)),
    db.delete(webSessions).where(eq(webSessions.listenerId, listenerId)),
    db.delete(agentFeeds).where(eq(agentFeeds.listenerId, listenerId)),
    db.delete(floOverrides).where(eq(floOverrides.listenerId, listenerId)),
    db.update(plays).set({ listenerId: null }).where(eq(plays.listenerId, listenerId)),
    db.update(ledgerEntries).set({ listenerId: null }).where(eq(ledgerEntries.listenerId, listenerId)),
    db.update(renderJobs).set({ listenerId: null }).where(eq(renderJobs.listenerId, listenerId)),
    db.update(renderJobs).set({ warmListenerId: null }).where(eq(renderJobs.warmListenerId, listenerId)),
    db.update(articles).set({ ownerListenerId: null }).where(eq(articles.ownerListenerId, listenerId)),
    db.delete(listeners).where(eq(listeners.id, listenerId)),
  ]);
}
