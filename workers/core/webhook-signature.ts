import { hmacSha256Hex, secretsEqual } from "../core/crypto";

/**
 * The publish webhook signature (docs/narration-api.md "Publish webhook"):
 * `x-legacy-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Signing the timestamp with the body stops replays of an old delivery beyond the tolerance.
 */

/** How far the signed timestamp may be from now, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const HEADER = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/;

/** The signed message: "<t>." followed by the body bytes exactly as received. */
function signedBytes(t: string, rawBody: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(`${t}.`);
  const out = new Uint8Array(prefix.length + rawBody.length);
  out.set(prefix);
  out.set(rawBody, prefix.length);
  return out;
}

/** The header value for `rawBody` signed at `nowMs`. */
export async function signWebhook(secret: string, rawBody: Uint8Array, nowMs = Date.now()): Promise<string> {
  const t = String(Math.floor(nowMs / 1000));
  return `t=${t},v1=${await hmacSha256Hex(secret, signedBytes(t, rawBody))}`;
}

/**
 * What a header `verifyWebhook` accepted says of its delivery: the signed time, and the MAC, which
 * names the delivery (one body at one second); null for a malformed header.
 */
export function signedDelivery(header: string | null): { signedAt: Date; mac: string } | null {
  const match = HEADER.exec(header?.trim() ?? "");
  return match ? { signedAt: new Date(Number(match[1]) * 1000), mac: match[2] } : null;
}

/**
 * True only for a well-formed header whose HMAC over the exact raw body matches (compared in
 * constant time) and whose timestamp is within the tolerance. An unset secret verifies nothing.
 */
export async function verifyWebhook(secret: string, header: string | null, rawBody: Uint8Array, nowMs = Date.now()): Promise<boolean> {
  if (!secret || !header) return false;
  const match = HEADER.exec(header.trim());
  if (!match) return false;
  const t = Number(match[1]);
  if (Math.abs(nowMs / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  return secretsEqual(match[2], await hmacSha256Hex(secret, signedBytes(match[1], rawBody)));
}
