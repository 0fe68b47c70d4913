import { aeskw } from "@noble/ciphers/aes";
import { derivedSecret } from "../core/platform-secret";

/**
 * The URL of private narration is a capability (DESIGN.md "Contracts added in turn 4", issue 40 item 2):
 * the content key, a hash anyone can compute from a guessed text, is wrapped with AES Key Wrap
 * (RFC 3394) under a key derived from TOKEN_ENCRYPTION_KEY with HKDF (RFC 5869, info
 * "audio-capability"), so only the service can turn a key into its URL, and back. Wrapping is
 * deterministic (one stable URL per audio, as podcast apps need) and authenticated (RFC 3394 §2.2.3:
 * a forged or altered capability fails its integrity check). It is synchronous, so every listing
 * builds URLs without awaiting (kernel/public-urls.ts). Rotating TOKEN_ENCRYPTION_KEY changes every
 * private audio URL: private feeds then list the new ones, copies of the old ones stop working.
 */

const PURPOSE = "audio-capability";
/** A wrapped 32-byte key: 40 bytes, 54 characters of base64url; never 64 hex digits, so never a content key. */
export const AUDIO_CAPABILITY_PATTERN = /^[A-Za-z0-9_-]{54}$/;

/** A key-wrap cipher under the derived key: a fresh one per use (an instance refuses a second encryption). */
function wrapper(env: object): ReturnType<typeof aeskw> {
  return aeskw(derivedSecret(env, PURPOSE, 32, "private audio URLs cannot be issued"));
}

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!, (b) => Number.parseInt(b, 16));
const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The capability naming the audio stored under content key `key` (64 hex digits, as every content key is). */
export function audioCapability(env: object, key: string): string {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new Error("not a content key: private audio URLs wrap the 64 hex digits of one");
  return base64url(wrapper(env).encrypt(hexBytes(key)));
}

/** The content key a capability names, or null when it was not issued by this service. */
export function keyOfCapability(env: object, capability: string): string | null {
  if (!AUDIO_CAPABILITY_PATTERN.test(capability)) return null;
  const wrapped = Uint8Array.from(atob(capability.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  try {
    // 40 bytes unwrap to the 32 that were wrapped: a key's 64 hex digits.
    return toHex(wrapper(env).decrypt(wrapped));
  } catch {
    // RFC 3394 §2.2.3: the integrity check failed; the value was forged or altered.
    return null;
  }
}
