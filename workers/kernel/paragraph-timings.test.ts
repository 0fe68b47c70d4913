import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { audioObjects, database } from "../db";
import { narratedText } from "./article-text";
import { MASTER_SAMPLE_RATE } from "./audio-objects";
import { narratedParagraphs, paragraphStarts, paragraphsOf } from "./paragraph-timings";

describe("paragraphsOf", () => {
  it("splits at blank lines, joining hard-wrapped lines within a paragraph", () => {
    expect(paragraphsOf("One line\nwrapped.\n\n \n\nTwo.\r\n\r\nThree.  ")).toEqual(["One line wrapped.", "Two.", "Three."]);
  });

  it("reads a text without blank lines as one paragraph (line breaks are whitespace, as the cache key has it)", () => {
    expect(paragraphsOf("  Just one.\nParagraph   here. ")).toEqual(["Just one. Paragraph here."]);
  });
});

describe("narratedParagraphs", () => {
  it("is the title then the body's paragraphs", () => {
    expect(narratedParagraphs({ title: "A title", bodyText: "First\nwrapped.\n\nSecond." })).toEqual(["A title.", "First wrapped.", "Second."]);
  });

  it("splits a body without blank lines where a line ends a sentence, and nowhere else", () => {
    const bodyText = "First line\nwrapped here.\nSecond ends with a quote.\u201d\nThird: a list\nfollows?";
    expect(narratedParagraphs({ title: "T", bodyText })).toEqual([
      "T.",
      "First line wrapped here.",
      "Second ends with a quote.\u201d",
      "Third: a list follows?",
    ]);
  });

  it("is exactly what the render finds in narratedText", () => {
    for (const article of [
      { title: "A title", bodyText: "First.\nSecond." },
      { title: "A title", bodyText: "First\nwrapped.\n\n\nSecond." },
      { title: "Odd\n\ntitle", bodyText: "Only one." },
    ]) {
      expect(paragraphsOf(narratedText(article))).toEqual(narratedParagraphs(article));
    }
  });
});

describe("paragraphStarts", () => {
  const article = { title: "T", bodyText: "One.\n\nTwo." };
  const row = { key: "a".repeat(64), provider: "espeak", voice: "v", durationSeconds: 3, segments: 1 };

  it("reads the recorded sample offsets back in seconds, one per paragraph", async () => {
    await database(env)
      .insert(audioObjects)
      .values({ ...row, paragraphStarts: [2400, 36000, 60000] });
    expect(await paragraphStarts(env, { ...article, audioKey: row.key })).toEqual([2400 / MASTER_SAMPLE_RATE, 1.5, 2.5]);
  });

  it("is null without audio, without recorded timings, or for timings of another paragraph count", async () => {
    expect(await paragraphStarts(env, { ...article, audioKey: null })).toBeNull();
    expect(await paragraphStarts(env, { ...article, audioKey: row.key })).toBeNull();
    await database(env).insert(audioObjects).values(row);
    expect(await paragraphStarts(env, { ...article, audioKey: row.key })).toBeNull();
    await database(env)
      .update(audioObjects)
      .set({ paragraphStarts: [2400, 36000] });
    expect(await paragraphStarts(env, { ...article, audioKey: row.key })).toBeNull();
  });
});
