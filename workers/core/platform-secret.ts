import { hkdf } from "@noble/hashes/hkdf";
import { sha256 } from "@noble/hashes/sha2";
import { config } from "./config";

/**
 * TOKEN_ENCRYPTION_KEY, the platform's one secret, read in one place: its own bytes encrypt stored
 * credentials (kernel/listener-tokens.ts), and every other key is derived from it for one purpose with
 * HKDF-SHA-256 (RFC 5869, no salt, the purpose as info), so there is no second secret to provision and no
 * key serves two algorithms. Each is computed once per isolate and secret. Throws when the secret is not
 * configured; `missing` says what cannot be done then.
 */

const derived = new Map<string, Uint8Array>();

/** TOKEN_ENCRYPTION_KEY's bytes (base64 in the configuration). */
export function platformSecret(env: object, missing: string): Uint8Array {
  const raw = config(env).TOKEN_ENCRYPTION_KEY;
  if (!raw) throw new Error(`TOKEN_ENCRYPTION_KEY is not configured: ${missing}`);
  return Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
}

/** `length` bytes derived from TOKEN_ENCRYPTION_KEY for `purpose`. */
export function derivedSecret(env: object, purpose: string, length: number, missing: string): Uint8Array {
  const id = `${config(env).TOKEN_ENCRYPTION_KEY}\n${purpose}\n${length}`;
  let bytes = derived.get(id);
  if (!bytes) {
    bytes = hkdf(sha256, platformSecret(env, missing), new Uint8Array(), new TextEncoder().encode(purpose), length);
    derived.set(id, bytes);
  }
  return bytes;
}
