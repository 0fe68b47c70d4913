import { eq } from "drizzle-orm";
import { config } from "../core/config";
import { ApiError } from "../core/errors";
import { randomToken, sha256Hex } from "../core/crypto";
import { platformSecret } from "../core/platform-secret";
import { listeners, type Database } from "../db/index";

/**
 * Listener credentials: the account token (listener paths) and the private feed token (feed URLs).
 * The database keeps a SHA-256 of each for lookup and an AES-GCM copy for handing a token back,
 * so a copy of the database alone lets nobody act as a listener.
 */

export type Listener = typeof listeners.$inferSelect;

/** A new credential: the secret to hand out once, its lookup hash and its encrypted copy. */
export interface MintedToken {
  token: string;
  hash: string;
  encrypted: string;
}

const keys = new Map<string, Promise<CryptoKey>>();

/** The AES-GCM key of stored credentials: TOKEN_ENCRYPTION_KEY's own bytes (core/platform-secret.ts), imported once per secret. */
function encryptionKey(env: object): Promise<CryptoKey> {
  const raw = config(env).TOKEN_ENCRYPTION_KEY ?? "";
  let key = keys.get(raw);
  if (!key) {
    key = crypto.subtle.importKey("raw", platformSecret(env, "credentials cannot be stored"), "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(raw, key);
  }
  return key;
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** Encrypts a token (or any secret text) for storage: base64(iv || ciphertext). */
export async function encryptToken(env: object, token: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await encryptionKey(env), new TextEncoder().encode(token));
  const out = new Uint8Array(iv.length + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), iv.length);
  return toBase64(out);
}

/** Recovers a token stored by encryptToken. */
export async function decryptToken(env: object, stored: string): Promise<string> {
  const bytes = Uint8Array.from(atob(stored), (c) => c.charCodeAt(0));
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, await encryptionKey(env), bytes.slice(12));
  return new TextDecoder().decode(plain);
}

/** Mints a fresh credential with its hash and encrypted copy. */
export async function mintToken(env: object): Promise<MintedToken> {
  const token = randomToken(32);
  const [hash, encrypted] = await Promise.all([sha256Hex(token), encryptToken(env, token)]);
  return { token, hash, encrypted };
}

/** The listener whose account token is `token`. Lookup by hash: equality on a digest leaks nothing useful. */
export async function listenerByToken(db: Database, token: string): Promise<Listener | undefined> {
  return db.query.listeners.findFirst({ where: eq(listeners.tokenHash, await sha256Hex(token)) });
}

/** The listener whose private feed token is `token`. */
export async function listenerByFeedToken(db: Database, token: string): Promise<Listener | undefined> {
  return db.query.listeners.findFirst({ where: eq(listeners.privateFeedTokenHash, await sha256Hex(token)) });
}

/**
 * The listener holding account token `token`, or 404 (unknown, rotated away or deleted). One rule for
 * every route that takes the token: an inactive listener still holds the account (`active: false`
 * only stops the daily digest), so the token keeps working until it is rotated or the account deleted.
 */
export async function requireListener(db: Database, token: string): Promise<Listener> {
  const listener = await listenerByToken(db, token);
  if (!listener) throw new ApiError("not_found", "no listener with this token");
  return listener;
}
