import { and, asc, eq, isNull } from "drizzle-orm";
import { randomToken, sha256Hex } from "../core/crypto";
import { database, publisherKeys, publisherWebhookSecrets } from "../db/index";
import { decryptToken, mintToken } from "./listener-tokens";

/**
 * Publisher credentials (docs/security.md "Publisher keys"): API keys for render, jobs and plays, and signing
 * secrets for the publish webhook, each acting for one publisher only.
 *
 * A key is `npk_<8 characters>_<43 characters>`: the first part is its prefix, unique and safe to
 * show in lists and logs; the database keeps the SHA-256 of the whole key and finds a key by that
 * hash (equality on a digest tells an attacker nothing about the key). A webhook secret must be
 * recovered to verify an HMAC, so it is stored encrypted like the listener tokens.
 */

const KEY = /^npk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{43}$/;

export interface PublisherKeyMatch {
  id: number;
  publisher: string;
  prefix: string;
}

/** A new key for `publisher`: the key itself is returned once; only its hash is stored. */
export async function issuePublisherKey(env: Pick<Env, "DB">, publisher: string) {
  const prefix = `npk_${randomToken(6)}`;
  const key = `${prefix}_${randomToken(32)}`;
  const [row] = await database(env)
    .insert(publisherKeys)
    .values({ publisher, prefix, keyHash: await sha256Hex(key) })
    .returning();
  return { key, row: row! };
}

/** The unrevoked publisher key `key` is, or null. */
export async function findPublisherKey(env: Pick<Env, "DB">, key: string): Promise<PublisherKeyMatch | null> {
  if (!KEY.test(key)) return null;
  const row = await database(env).query.publisherKeys.findFirst({
    columns: { id: true, publisher: true, prefix: true },
    where: and(eq(publisherKeys.keyHash, await sha256Hex(key)), isNull(publisherKeys.revokedAt)),
  });
  return row ?? null;
}

/** A new webhook signing secret for `publisher`, returned once; it replaces the previous one at once. */
export async function issueWebhookSecret(env: Pick<Env, "DB"> & object, publisher: string) {
  const minted = await mintToken(env);
  const row = { publisher, prefix: minted.token.slice(0, 8), secretEncrypted: minted.encrypted, createdAt: new Date() };
  await database(env).insert(publisherWebhookSecrets).values(row).onConflictDoUpdate({ target: publisherWebhookSecrets.publisher, set: row });
  return { secret: minted.token, prefix: row.prefix };
}

/** The publisher's own webhook signing secret, or null when it has none. */
export async function webhookSecretOf(env: Pick<Env, "DB"> & object, publisher: string): Promise<string | null> {
  const row = await database(env).query.publisherWebhookSecrets.findFirst({
    columns: { secretEncrypted: true },
    where: eq(publisherWebhookSecrets.publisher, publisher),
  });
  return row ? decryptToken(env, row.secretEncrypted) : null;
}

/** The publisher's keys, revoked ones included, oldest first. */
export function publisherKeysOf(env: Pick<Env, "DB">, publisher: string) {
  return database(env).query.publisherKeys.findMany({ where: eq(publisherKeys.publisher, publisher), orderBy: asc(publisherKeys.id) });
}

/** Revokes the publisher's unrevoked key `id`; false when there is none. The next request with it fails. */
export async function revokePublisherKey(env: Pick<Env, "DB">, publisher: string, id: number): Promise<boolean> {
  const revoked = await database(env)
    .update(publisherKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(publisherKeys.id, id), eq(publisherKeys.publisher, publisher), isNull(publisherKeys.revokedAt)))
    .returning({ id: publisherKeys.id });
  return revoked.length > 0;
}
