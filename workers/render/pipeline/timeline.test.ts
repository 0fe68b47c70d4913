import { store } from "../../../test/support/render-store";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tonePcm16 } from "../../../test/support/fake-fetch";
import { audioObjects, database } from "../../db/index";
import { narratedText } from "../../kernel/article-text";
import { paragraphStarts } from "../../kernel/paragraph-timings";
import { joinPieces, PAUSE_MS } from "../engine/join";
import type { Pcm16 } from "../engine/pcm";
import type { FetchFn } from "../providers/http";
import { openAiSynthesizer } from "../providers/openai";
import { FIRST_PASSAGE_CHARS, segmentParagraphs } from "./chunk";
import { renderText } from "./render";
import { layOut } from "./segment";
import { unitSamples } from "../engine/units";
import { ParagraphTimeline } from "./timeline";

const RATE = 24_000;
const ms = (n: number) => Math.round((n / 1000) * RATE);
/** A piece that is audible from its first sample to its last (a tone riding on an offset). */
const tone = (seconds: number): Pcm16 => ({
  samples: Int16Array.from({ length: ms(seconds * 1000) }, (_, i) => Math.round(4000 + 3000 * Math.sin((2 * Math.PI * 200 * i) / RATE))),
  sampleRate: RATE,
});
const silence = (seconds: number): Pcm16 => ({ samples: new Int16Array(ms(seconds * 1000)), sampleRate: RATE });

describe("the join's pauses and starts", () => {
  it("puts a sentence pause within a paragraph and a longer paragraph pause between them, and reports each piece's start", () => {
    const joined = joinPieces([tone(0.5), tone(0.25), tone(1)], ["start", "sentence", "paragraph"]);
    expect(PAUSE_MS).toEqual({ start: 100, sentence: 300, paragraph: 600 });
    expect(joined.starts).toEqual([ms(100), ms(100 + 500 + 300), ms(100 + 500 + 300 + 250 + 600)]);
    expect(joined.samples.length).toBe(ms(100 + 500 + 300 + 250 + 600 + 1000 + 100));
  });

  it("gives a silent piece the next kept piece's start and passes its paragraph break on", () => {
    const joined = joinPieces([tone(0.5), silence(0.4), tone(0.5), silence(0.2)], ["start", "paragraph", "sentence", "paragraph"]);
    expect(joined.starts).toEqual([ms(100), ms(1200), ms(1200), null]);
    expect(joined.samples.length).toBe(ms(1200 + 500 + 100));
  });

  it("lays joins end to end with the pauses of one join: stored paragraphs meet as pieces do, and a silent one passes its break on", () => {
    const passages = [
      { paragraph: 0, text: "a", brk: "start" },
      { paragraph: 1, text: "b", brk: "paragraph" },
      { paragraph: 1, text: "c", brk: "sentence" },
      { paragraph: 2, text: "d", brk: "paragraph" },
      { paragraph: 3, text: "e", brk: "sentence" },
    ] as const;
    const lengths = [0.5, 0.25, 1, 0, 0.5];
    const voiced = lengths.map((seconds, i) => {
      const own = joinPieces([seconds ? tone(seconds) : silence(0.2)], ["start"]);
      return { samples: seconds ? own.samples : new Int16Array(0), start: own.starts[0], words: [{ text: "w", start: 2400, end: 2500 + i }] };
    });
    const laid = layOut([...passages], voiced);
    // The same as one join of the pieces, sample for sample, but for the silence that ends each
    // passage's unit on a frame boundary (engine/units.ts): the paragraph break of the silent passage
    // "d" passes to "e".
    const whole = joinPieces([tone(0.5), tone(0.25), tone(1), tone(0.5)], ["start", "paragraph", "sentence", "paragraph"]);
    const kept = voiced.filter((v) => v.samples.length > 0).map((v) => v.samples);
    const pads: Int16Array[] = [];
    let at = 0;
    for (const [i, part] of laid.parts.entries()) {
      at += part.length;
      if (i > 0 && kept.includes(laid.parts[i - 1])) {
        expect(part.every((s) => s === 0)).toBe(true);
        expect(at % unitSamples(RATE)).toBe(0);
        pads.push(part);
      }
    }
    expect(at % unitSamples(RATE)).toBe(0);
    const unpadded = laid.parts.filter((part) => !pads.includes(part));
    const joined = new Int16Array(unpadded.reduce((n, part) => n + part.length, 0));
    unpadded.reduce((at, part) => (joined.set(part, at), at + part.length), 0);
    expect(joined).toEqual(whole.samples);
    expect(laid.samples).toBe(laid.parts.reduce((n, part) => n + part.length, 0));
    const padBefore = (k: number) => pads.slice(0, k).reduce((n, pad) => n + pad.length, 0);
    expect(laid.starts).toEqual([whole.starts[0], whole.starts[1]! + padBefore(1), whole.starts[2]! + padBefore(2), null, whole.starts[3]! + padBefore(3)]);
    expect(laid.words.map((w) => [w.passage, w.start])).toEqual([0, 1, 2, 4].map((p, k) => [p, whole.starts[k]! + padBefore(k)]));
  });
});

describe("segmentParagraphs", () => {
  it("keeps paragraphs whole where they fit and marks what precedes each passage", () => {
    const segments = segmentParagraphs(["Title.", "", "One two. Three four.", "Five six seven. Eight nine ten."], 20);
    expect(segments).toEqual([
      [{ paragraph: 0, text: "Title.", brk: "start" }],
      [{ paragraph: 2, text: "One two. Three four.", brk: "paragraph" }],
      [{ paragraph: 3, text: "Five six seven.", brk: "paragraph" }],
      [{ paragraph: 3, text: "Eight nine ten.", brk: "sentence" }],
    ]);
    expect(segmentParagraphs(["A b.", "C d."], 100)).toEqual([
      [
        { paragraph: 0, text: "A b.", brk: "start" },
        { paragraph: 1, text: "C d.", brk: "paragraph" },
      ],
    ]);
  });

  it("gives a long first paragraph's first sentences a passage of their own, so a listener's stream starts once they are voiced", () => {
    const lead = "The council met on Tuesday evening to discuss the new cycling lanes.";
    const rest = "Residents who had waited two years for the lanes came to the town hall to hear every word of it. The vote was close.";
    const later = `${lead} ${rest} ${rest}`;
    expect(`${lead} ${rest}`.length).toBeGreaterThan(FIRST_PASSAGE_CHARS);
    expect(segmentParagraphs([`${lead} ${rest}`, later], 10_000)).toEqual([
      [
        { paragraph: 0, text: lead, brk: "start" },
        { paragraph: 0, text: rest, brk: "sentence" },
        // Only the first passage of all: every other paragraph stays whole.
        { paragraph: 1, text: later, brk: "paragraph" },
      ],
    ]);
    // A short first paragraph (a title) is left whole.
    expect(segmentParagraphs(["Cycling lanes approved.", later], 10_000)[0].map((p) => p.text)).toEqual(["Cycling lanes approved.", later]);
  });
});

describe("ParagraphTimeline", () => {
  it("adds the length of the segments before to each start, and gives a paragraph with no audio the next start", () => {
    const timeline = new ParagraphTimeline(5);
    timeline.add(
      [
        { paragraph: 0, text: "a", brk: "start" },
        { paragraph: 1, text: "b", brk: "paragraph" },
      ],
      [2400, 30_000],
      50_000,
    );
    // Paragraph 2 is empty (no passage); paragraph 3 continues from one segment into the next.
    timeline.add([{ paragraph: 3, text: "c", brk: "paragraph" }], [12_000], 40_000);
    timeline.add(
      [
        { paragraph: 3, text: "d", brk: "sentence" },
        { paragraph: 4, text: "e", brk: "paragraph" },
      ],
      [4800, null],
      30_000,
    );
    expect(timeline.finish()).toEqual([2400, 30_000, 62_000, 62_000, 120_000]);
  });
});

describe("a render records paragraph starts from its join", () => {
  it("stores where each paragraph starts, whatever the lengths of the texts, and the readers get them in seconds", async () => {
    // Each text's audio lasts as long as its first word says, not as long as its characters would.
    const seconds: Record<string, number> = { Headline: 2, Tiny: 3, Long: 0.5 };
    const fetchFn: FetchFn = async (_url, init) => new Response(tonePcm16(seconds[/\w+/.exec(JSON.parse(String(init.body)).input)![0]], RATE));
    const article = { title: "Headline", bodyText: `Tiny.\n\nLong ${"words that take no time at all ".repeat(8)}end.` };
    const result = await renderText(store, { text: narratedText(article), voice: "onyx" }, { openai: openAiSynthesizer("sk-test", fetchFn) });

    // 0.1 s lead-in, each tone, a paragraph pause (0.6 s) before each paragraph after the first, each
    // paragraph's unit (its pause, lead-in, tone and tail) ended with silence on a frame boundary.
    const unit = (samples: number) => Math.ceil(samples / unitSamples(RATE)) * unitSamples(RATE);
    const [first, second] = [unit(ms(100 + 2000 + 100)), unit(ms(400 + 100 + 3000 + 100))];
    const expected = [ms(100), first + ms(400 + 100), first + second + ms(400 + 100)];
    const row = await database(env).select().from(audioObjects).where(eq(audioObjects.key, result.key)).get();
    expect(row!.paragraphStarts).toEqual(expected);
    expect(result.duration_seconds).toBeCloseTo((first + second + unit(ms(400 + 100 + 500 + 100))) / RATE, 6);
    const starts = await paragraphStarts(env, { ...article, audioKey: result.key });
    expect(starts).toEqual(expected.map((s) => s / RATE));
    // Shares of the characters would put the last paragraph seconds away from where it is heard.
    const chars = narratedText(article).length;
    const byChars = (narratedText(article).indexOf("Long") / chars) * result.duration_seconds;
    expect(Math.abs(byChars - starts![2])).toBeGreaterThan(1);
  });
});
