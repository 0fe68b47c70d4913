import { describe, expect, it } from "vitest";
import { hmacSha256Hex, randomToken, secretsEqual, sha256Hex } from "./crypto";

/** The primitives every credential rests on, checked against published vectors. */
describe("crypto", () => {
  it("sha256Hex: FIPS 180-2's 'abc' and UTF-8 text, as lowercase hex of 64 digits, from text or bytes alike", async () => {
    const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(await sha256Hex("abc")).toBe(abc);
    expect(await sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(abc);
    // printf 'é' | sha256sum: the two bytes of its UTF-8, not one Latin-1 byte.
    expect(await sha256Hex("é")).toBe("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
  });

  it("hmacSha256Hex: RFC 4231 test case 2, from text or bytes alike", async () => {
    const expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    expect(await hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe(expected);
    expect(await hmacSha256Hex("Jefe", new TextEncoder().encode("what do ya want for nothing?"))).toBe(expected);
  });

  it("randomToken: URL-safe base64 without padding, as many bytes as asked, never twice the same", () => {
    const tokens = Array.from({ length: 200 }, () => randomToken());
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    // 200 tokens of 32 bytes hold both characters base64 writes as + and / (each in about 1 of 32 places).
    expect(tokens.join("")).toMatch(/-/);
    expect(tokens.join("")).toMatch(/_/);
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomToken(3)).toMatch(/^[A-Za-z0-9_-]{4}$/);
  });

  it("secretsEqual: only the same text, not a prefix, a longer text or another of the same length", async () => {
    expect(await secretsEqual("s3cret", "s3cret")).toBe(true);
    expect(await secretsEqual("s3cre", "s3cret")).toBe(false);
    expect(await secretsEqual("s3cret!", "s3cret")).toBe(false);
    expect(await secretsEqual("s3creT", "s3cret")).toBe(false);
    expect(await secretsEqual("", "")).toBe(true);
  });
});
