import { describe, expect, it } from "vitest";
import { cacheKey, paragraphKey } from "./cache-key";

/**
 * A paragraph's audio address (issue 46): stored paragraphs are reused across renders by this key alone
 * (pipeline/paragraph-cache.ts), so everything the audio depends on must be in it. Planted bug this
 * catches: paragraphKey passing "" (or a constant) for the voice, so a re-render in another voice of the
 * same engine reuses the first voice's paragraphs.
 */
describe("a paragraph's audio address", () => {
  const text = "The council met on Tuesday.";

  it("includes its voice: two voices of one engine never share a paragraph", async () => {
    expect(await paragraphKey("openai", "nova", text, null)).not.toBe(await paragraphKey("openai", "onyx", text, null));
    const digest = "d".repeat(64);
    expect(await paragraphKey("openai", "nova", text, digest)).not.toBe(await paragraphKey("openai", "onyx", text, digest));
  });

  it("is the same for the same engine, voice, text and pronunciations, so a re-render reuses it", async () => {
    expect(await paragraphKey("openai", "nova", text, null)).toBe(await paragraphKey("openai", "nova", text, null));
  });

  it("includes its engine, its text and its pronunciations", async () => {
    const base = await paragraphKey("openai", "nova", text, null);
    expect(await paragraphKey("azure", "nova", text, null)).not.toBe(base);
    expect(await paragraphKey("openai", "nova", `${text} Again.`, null)).not.toBe(base);
    expect(await paragraphKey("openai", "nova", text, "d".repeat(64))).not.toBe(base);
  });

  it("never equals a whole article's key for the same engine, voice and text", async () => {
    expect(await paragraphKey("openai", "nova", text, null)).not.toBe(await cacheKey("openai", "nova", text, null));
  });
});

/**
 * Killed mutants (npm run mutation): the digest left out of the NUL part, and the recipe line emptied.
 * Stored paragraphs outlive a deploy, so their address is written out here: a change to it, deliberate
 * or not, re-synthesises (and bills) every paragraph already stored.
 */
describe("a paragraph's audio address, exactly", () => {
  const hex = async (s: string) =>
    Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))), (b) => b.toString(16).padStart(2, "0")).join("");

  it("is the SHA-256 of the recipe line, engine, voice, text and, after a NUL, the pronunciations' digest", async () => {
    const recipe = "paragraph-v2 24000 Hz s16le -16 LUFS watermark-v1";
    expect(await paragraphKey("openai", "nova", "Hi.", null)).toBe(await hex(`${recipe}\nopenai\nnova\nHi.`));
    expect(await paragraphKey("openai", "nova", "Hi.", "d".repeat(64))).toBe(await hex(`${recipe}\nopenai\nnova\nHi.\u0000${"d".repeat(64)}`));
  });

  it("differs between two sets of pronunciations, so an edited entry is narrated anew", async () => {
    expect(await paragraphKey("openai", "nova", "Hi.", "d".repeat(64))).not.toBe(await paragraphKey("openai", "nova", "Hi.", "e".repeat(64)));
    expect(await cacheKey("openai", "nova", "Hi.", "d".repeat(64))).not.toBe(await cacheKey("openai", "nova", "Hi.", "e".repeat(64)));
  });
});
