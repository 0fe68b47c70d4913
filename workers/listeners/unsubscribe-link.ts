import { baseUrl } from "../core/config";
import { secretsEqual } from "../core/crypto";
import { derivedSecret } from "../core/platform-secret";

/**
 * The digest's unsubscribe link: `<listener id>.<signature>`, where the signature is an HMAC of the
 * listener id. It works without signing in (RFC 8058 section 3.1: the POST carries no cookie or
 * credential) and for that listener only; it is neither the account token nor the feed token, so a
 * forwarded digest hands out nothing but the power to stop digests.
 */

const PURPOSE = "digest-unsubscribe";
const keys = new Map<Uint8Array, Promise<CryptoKey>>();

/**
 * The signing key, derived from TOKEN_ENCRYPTION_KEY for this purpose (core/platform-secret.ts): 64 bytes,
 * SHA-256's block, the length WebCrypto derived for an HMAC key when links were first signed.
 */
function signingKey(env: object): Promise<CryptoKey> {
  const secret = derivedSecret(env, PURPOSE, 64, "digest unsubscribe links cannot be signed");
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

async function signature(env: object, listenerId: number): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await signingKey(env), new TextEncoder().encode(`${PURPOSE}:${listenerId}`));
  return btoa(String.fromCharCode(...new Uint8Array(mac)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The path of the unsubscribe page and one-click endpoint (workers/listeners/unsubscribe-page.ts). */
export const UNSUBSCRIBE_PATH = "/v1/unsubscribe";

/** The absolute unsubscribe URL of a listener, for List-Unsubscribe and the visible link. */
export async function unsubscribeUrl(env: object, listenerId: number): Promise<string> {
  return `${baseUrl(env)}${UNSUBSCRIBE_PATH}/${listenerId}.${await signature(env, listenerId)}`;
}

/** The listener id a link names when its signature is right, else null. */
export async function listenerIdOfLink(env: object, token: string): Promise<number | null> {
  const match = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  return (await secretsEqual(match[2], await signature(env, id))) ? id : null;
}
