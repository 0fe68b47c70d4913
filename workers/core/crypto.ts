/** Hashing, HMAC, random tokens and constant-time comparison on WebCrypto. */

const encoder = new TextEncoder();

function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data;
}

/** SHA-256 of a string (UTF-8) or bytes, as lowercase hex. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", toBytes(data)));
}

/** SHA-256 of `parts` laid end to end, without joining them into one copy. */
export async function sha256Of(parts: Uint8Array[]): Promise<Uint8Array> {
  const stream = new crypto.DigestStream("SHA-256");
  const writer = stream.getWriter();
  for (const part of parts) await writer.write(part);
  await writer.close();
  return new Uint8Array(await stream.digest);
}

/** sha256Of as lowercase hex. */
export async function sha256HexOf(parts: Uint8Array[]): Promise<string> {
  return toHex(await sha256Of(parts));
}

/** HMAC-SHA256 of `message` under `key`, as lowercase hex. */
export async function hmacSha256Hex(key: string, message: string | Uint8Array): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(await crypto.subtle.sign("HMAC", cryptoKey, toBytes(message)));
}

/** A URL-safe random secret with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * Compares two secrets in constant time. Both sides are hashed first so that neither the
 * content nor the length of the expected secret leaks through timing.
 */
export async function secretsEqual(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([crypto.subtle.digest("SHA-256", encoder.encode(given)), crypto.subtle.digest("SHA-256", encoder.encode(expected))]);
  return crypto.subtle.timingSafeEqual(a, b);
}
