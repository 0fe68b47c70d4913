import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addListener } from "../../test/support/articles";
import { ApiError } from "../core/errors";
import { sha256Hex } from "../core/crypto";
import { database } from "../db/index";
import { decryptToken, encryptToken, listenerByFeedToken, listenerByToken, mintToken, requireListener } from "./listener-tokens";

/** Listener credentials: looked up by their digest, handed back from an AES-GCM copy (docs/security.md). */
describe("listener tokens", () => {
  const otherKey = { ...env, TOKEN_ENCRYPTION_KEY: btoa("another-32-byte-platform-secret!") };

  it("mints a 32-byte URL-safe token, its SHA-256 and a copy only TOKEN_ENCRYPTION_KEY opens", async () => {
    const minted = await mintToken(env);
    expect(minted.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(minted.hash).toBe(await sha256Hex(minted.token));
    expect(minted.encrypted).not.toContain(minted.token);
    expect(await decryptToken(env, minted.encrypted)).toBe(minted.token);
    await expect(decryptToken(otherKey, minted.encrypted)).rejects.toThrow();
  });

  it("stores base64 of a fresh 12-byte IV, the ciphertext and GCM's 16-byte tag, so no two copies match", async () => {
    const secret = "Grüße 🎧";
    const [a, b] = [await encryptToken(env, secret), await encryptToken(env, secret)];
    expect(a).not.toBe(b);
    expect(atob(a)).toHaveLength(12 + new TextEncoder().encode(secret).length + 16);
    expect(await decryptToken(env, a)).toBe(secret);
    expect(await decryptToken(env, b)).toBe(secret);
    // The same text under another key: each key opens only its own copy.
    const c = await encryptToken(otherKey, secret);
    expect(await decryptToken(otherKey, c)).toBe(secret);
    await expect(decryptToken(env, c)).rejects.toThrow();
  });

  it("stores no credential without TOKEN_ENCRYPTION_KEY, and says what cannot be done", async () => {
    const { TOKEN_ENCRYPTION_KEY: _, ...unset } = env as Env & { TOKEN_ENCRYPTION_KEY?: string };
    await expect(mintToken(unset)).rejects.toThrow("TOKEN_ENCRYPTION_KEY is not configured: credentials cannot be stored");
  });

  it("refuses a copy changed by one bit", async () => {
    const bytes = Uint8Array.from(atob(await encryptToken(env, "token")), (ch) => ch.charCodeAt(0));
    bytes[bytes.length - 1] ^= 1;
    await expect(decryptToken(env, btoa(String.fromCharCode(...bytes)))).rejects.toThrow();
  });

  it("finds a listener by its account token or its feed token, each only by its own", async () => {
    const feed = await mintToken(env);
    const { listener, token } = await addListener({ privateFeedTokenHash: feed.hash, privateFeedTokenEncrypted: feed.encrypted });
    const db = database(env);
    expect((await listenerByToken(db, token))?.id).toBe(listener.id);
    expect((await listenerByFeedToken(db, feed.token))?.id).toBe(listener.id);
    expect(await listenerByToken(db, feed.token)).toBeUndefined();
    expect(await listenerByFeedToken(db, token)).toBeUndefined();
    // The digest itself is no token.
    expect(await listenerByToken(db, listener.tokenHash)).toBeUndefined();
  });

  it("requireListener answers 404 for a token no listener holds, and the listener for its own", async () => {
    const { listener, token } = await addListener({ active: false });
    const db = database(env);
    expect((await requireListener(db, token)).id).toBe(listener.id);
    const refused = await requireListener(db, `${token}x`).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: "not_found", message: "no listener with this token" });
  });
});
