import { describe, expect, it } from "vitest";
import { cacheKey } from "./cache-key";
import { normaliseText } from "../../kernel/normalize-text";

describe("cache key", () => {
  it("is the SHA-256 hex of provider, voice and text joined by newlines", async () => {
    const expected = await crypto.subtle.digest("SHA-256", new TextEncoder().encode("openai\nnova\nHello."));
    const hex = Array.from(new Uint8Array(expected), (b) => b.toString(16).padStart(2, "0")).join("");
    expect(await cacheKey("openai", "nova", "Hello.")).toBe(hex);
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs by provider and by voice", async () => {
    const keys = new Set([await cacheKey("openai", "nova", "Hi."), await cacheKey("offline", "nova", "Hi."), await cacheKey("openai", "onyx", "Hi.")]);
    expect(keys.size).toBe(3);
  });
});

describe("normaliseText", () => {
  it("folds what reads the same: whitespace, NFC, typographic quotes, invisible characters", () => {
    const variants = [
      "Café said “hi” — it’s  here.",
      '  Cafe\u0301 said "hi" - it\'s here.\n',
      "Caf\u00e9\u00a0said \u201chi\u201d \u2014 it\u2019s\there.\u200b",
    ];
    const normalised = variants.map(normaliseText);
    expect(new Set(normalised).size).toBe(1);
    expect(normalised[0]).toBe('Café said "hi" - it\'s here.');
  });

  it("keeps case and punctuation, which change how text is spoken", () => {
    expect(normaliseText("US")).not.toBe(normaliseText("us"));
    expect(normaliseText("Really?")).not.toBe(normaliseText("Really."));
  });
});
