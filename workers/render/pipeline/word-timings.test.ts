import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { store } from "../../../test/support/render-store";
import { narratedText } from "../../kernel/article-text";
import { audioObjectPath, wordTimingsPath } from "../../kernel/audio-objects";
import { detectSilences } from "../../../test/support/audio-probe";
import { narratedParagraphs, paragraphStarts } from "../../kernel/paragraph-timings";
import { alignWords, storedWords } from "../../kernel/word-timings";
import { wordsOf } from "../../kernel/words";
import { joinPieces, PIECE_SILENCE, pieceToInt16 } from "../engine/join";
import { espeakTimed } from "../engine/offline";
import type { Pcm16 } from "../engine/pcm";
import { renderText } from "./render";
import { ParagraphTimeline } from "./timeline";
import { pieceWords } from "./word-timings";
import { offlineSynthesizer } from "../engine/offline";

const RATE = 24_000;
const ms = (n: number) => Math.round((n / 1000) * RATE);

/** A piece of `parts` in order: a number is that many ms of silence, a string that many ms of tone per character. */
function piece(...parts: (number | string)[]): Pcm16 {
  const chunks = parts.map((p) =>
    typeof p === "number"
      ? new Int16Array(ms(p))
      : Int16Array.from({ length: ms(60 * p.length) }, (_, i) => Math.round(4000 + 3000 * Math.sin((2 * Math.PI * 220 * i) / RATE))),
  );
  const samples = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) samples.set(c, (at += c.length) - c.length);
  return { samples, sampleRate: RATE };
}

describe("eSpeak NG's word events", () => {
  it("reports where each word starts in the text and in the audio, in speaking order", async () => {
    const text = "Hello world. The café's tide turns twice a day.";
    const { pcm, words } = await espeakTimed(text, "en-us");
    const starts = words.map((w) => text.slice(w.char).split(" ")[0]);
    // Every word with letters has an event of its own, except where eSpeak reads two as one ("a day").
    expect(starts).toEqual(expect.arrayContaining(["Hello", "world.", "The", "café's", "tide", "turns", "twice"]));
    for (let i = 1; i < words.length; i++) expect(words[i].at).toBeGreaterThanOrEqual(words[i - 1].at);
    expect(words.at(-1)!.at).toBeLessThan(pcm.samples.length / pcm.sampleRate);
    // "world" starts after "Hello" is heard: about a third of a second at this pace.
    expect(words[1].at).toBeGreaterThan(0.2);
    expect(words[1].at).toBeLessThan(0.6);
  });

  it("times every word of a piece on its audible part, the engine's marks first", async () => {
    const text = "Sailors trust the table. It is arithmetic of the moon.";
    const { pcm, words: marks } = await espeakTimed(text, "en-us");
    const master = pieceToInt16(pcm, RATE);
    const words = pieceWords(text, master, PIECE_SILENCE, marks);
    expect(words.map((w) => w.text)).toEqual(text.split(" "));
    for (const [i, w] of words.entries()) {
      expect(w.end).toBeGreaterThan(w.start);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1].end);
      // Each start is on speech: the sample there or just after it is audible.
      const window = master.samples.subarray(w.start, w.start + ms(40));
      expect(Math.max(...window.map(Math.abs))).toBeGreaterThanOrEqual(PIECE_SILENCE);
    }
    // A word with a mark of its own starts within 40 ms of where the engine said it would, or later
    // when the engine marked the pause before it.
    const it = words[text.split(" ").indexOf("It")];
    const mark = marks.find((m) => text.slice(m.char).startsWith("It"))!;
    expect(it.start / RATE).toBeGreaterThanOrEqual(mark.at - 0.04);
    // The sentence pause belongs to no word: "table." ends before "It" starts, with silence between.
    const table = words[3];
    expect(it.start - table.end).toBeGreaterThan(ms(100));
  });
});

describe("words of an engine that reports none", () => {
  it("places each sentence on its stretch of speech and shares it among the words by characters", () => {
    // Two sentences, two bursts of sound separated by a pause; the bursts' lengths are not the characters'.
    const pcm = piece(100, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 400, "xxxxxxxxxx", 100);
    const words = pieceWords("One two three. Four five.", pcm, 100);
    const firstBurst = [ms(100), ms(100 + 2400)];
    const secondBurst = [ms(100 + 2400 + 400), ms(100 + 2400 + 400 + 600)];
    expect(words.map((w) => w.text)).toEqual(["One", "two", "three.", "Four", "five."]);
    for (const w of words.slice(0, 3)) expect([w.start >= firstBurst[0] - ms(15), w.end <= firstBurst[1] + ms(15)]).toEqual([true, true]);
    for (const w of words.slice(3)) expect([w.start >= secondBurst[0] - ms(15), w.end <= secondBurst[1] + ms(15)]).toEqual([true, true]);
    // "Four" starts with the second burst, not where its characters alone would put it.
    expect(Math.abs(words[3].start - secondBurst[0])).toBeLessThanOrEqual(ms(15));
  });

  it("shares the whole speech by characters when it finds fewer pauses than sentence breaks", () => {
    const words = pieceWords("Aa bb. Cc dd.", piece(0, "xxxxxxxxxxxxxxxxxxxx", 0), 100);
    expect(words[0].start).toBe(0);
    expect(words.map((w) => w.start)).toEqual([...words.map((w) => w.start)].sort((a, b) => a - b));
    expect(words.at(-1)!.end).toBe(ms(1200));
  });
});

describe("words across joins and segments", () => {
  it("keeps each piece's words on the part the join kept, so they are exact at every join", () => {
    const a = piece(200, "xxxxx", 300);
    const b = piece(50, "xxxxx", 50);
    const words = [pieceWords("Aaaa.", a, 100), pieceWords("Bbbb.", b, 100)];
    const joined = joinPieces([a, b], ["start", "paragraph"]);
    // The join trims each piece to its audible span (plus a 15 ms guard): a word starts 15 ms into it.
    expect(joined.spans[0][0]).toBe(ms(200) - ms(15));
    const place = (i: number, s: number) => joined.starts[i]! + s - joined.spans[i][0];
    expect(place(0, words[0][0].start)).toBe(joined.starts[0]! + ms(15));
    expect(place(1, words[1][0].start)).toBe(joined.starts[1]! + ms(15));
  });

  it("adds the length of the segments before to each word, as to each paragraph start", () => {
    const timeline = new ParagraphTimeline(2);
    timeline.add([{ paragraph: 0, text: "a b", brk: "start" }], [2400], 50_000, [
      { passage: 0, text: "a", start: 2400, end: 9000 },
      { passage: 0, text: "b", start: 9000, end: 20_000 },
    ]);
    timeline.add([{ paragraph: 1, text: "c", brk: "paragraph" }], [12_000], 40_000, [{ passage: 0, text: "c", start: 12_000, end: 30_000 }]);
    expect(timeline.finish()).toEqual([2400, 62_000]);
    expect(timeline.words()).toEqual([
      { paragraph: 0, text: "a", start: 2400, end: 9000 },
      { paragraph: 0, text: "b", start: 9000, end: 20_000 },
      { paragraph: 1, text: "c", start: 62_000, end: 80_000 },
    ]);
  });
});

describe("a render stores its word timings", () => {
  const ARTICLE = {
    title: "Tide Tables — Explained",
    bodyText: "Every harbour prints a \u201ctide table\u201d, and sailors trust it.\n\nThe table is built from harmonic constituents: dozens of gentle waves.",
  };

  it("beside the audio: every word of every paragraph, inside its paragraph, in order", async () => {
    const result = await renderText(store, { text: narratedText(ARTICLE), voice: "en-US-male" }, { offline: offlineSynthesizer });
    const stored = await storedWords(env, result.key);
    expect(stored).not.toBeNull();
    const object = await env.AUDIO.head(wordTimingsPath(result.key));
    expect(object?.httpMetadata?.contentType).toBe("application/json");
    const paragraphs = narratedParagraphs(ARTICLE);
    const starts = (await paragraphStarts(env, { ...ARTICLE, audioKey: result.key }))!;
    const aligned = alignWords(paragraphs, stored!);
    // The article's own words (a dash and curly quotes, which the engine read folded), each timed.
    aligned.forEach((words, p) => {
      expect(words?.map((w) => w.text)).toEqual(wordsOf(paragraphs[p]));
      for (const [i, w] of words!.entries()) {
        expect(w.start).toBeGreaterThanOrEqual(starts[p]);
        expect(w.end).toBeLessThanOrEqual(starts[p + 1] ?? result.duration_seconds);
        if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words![i - 1].start);
      }
      // The paragraph's first word starts where the paragraph does (the join's 15 ms guard, and the engine's own onset).
      expect(words![0].start - starts[p]).toBeLessThan(0.25);
    });
    // The dash has no letters: it takes no time, starting where "Explained" does.
    const dash = aligned[0]!.find((w) => w.text === "—")!;
    expect(dash.end).toBe(dash.start);
  });

  it("where the MP3 is heard to speak them: speech resumes after every pause within 150 ms of a word's start (ffmpeg silencedetect)", async () => {
    const article = {
      title: "Harbour notes",
      bodyText:
        "The tide turned at noon. Boats waited, engines idle, for the gate.\n\nIn 1987 and 2019 the gauge read 4,512 millimetres. Nobody was surprised.",
    };
    const result = await renderText(store, { text: narratedText(article), voice: "en-US-female" }, { offline: offlineSynthesizer });
    const words = (await storedWords(env, result.key))!;
    const mp3 = await (await env.AUDIO.get(audioObjectPath(result.key, "mp3")))!.arrayBuffer();
    const pauses = (await detectSilences(mp3, "mp3", -50, 0.1)).filter(([start, end]) => start > 0 && end < result.duration_seconds - 0.05);
    expect(pauses.length).toBeGreaterThan(3);
    for (const [, onset] of pauses) {
      // The MP3 plays LAME's 46 ms delay first (kernel/paragraph-timings.ts), so speech comes a little after the word's start, never before.
      const next = words.find((w) => w.start > onset - 0.15)!;
      expect(next, `a word starts near ${onset}`).toBeDefined();
      expect(onset - next.start, `speech at ${onset}, word "${next.text}" at ${next.start}`).toBeGreaterThanOrEqual(-0.02);
      expect(onset - next.start, `speech at ${onset}, word "${next.text}" at ${next.start}`).toBeLessThanOrEqual(0.15);
    }
    // And the other way: the word after each sentence's end starts where a pause ends.
    for (const [i, w] of words.entries()) {
      if (i === 0 || !/[.!?]$/.test(words[i - 1].text)) continue;
      const nearest = Math.min(...pauses.map(([, onset]) => Math.abs(onset - w.start)));
      expect(nearest, `"${w.text}" at ${w.start}`).toBeLessThanOrEqual(0.15);
    }
  }, 60_000);

  it("and a text whose words no longer match (another version) gets none for that paragraph", () => {
    const stored = [
      { start: 0.1, end: 0.4, text: "Old", paragraph: 0 },
      { start: 0.5, end: 0.9, text: "title.", paragraph: 0 },
    ];
    expect(alignWords(["New title."], stored)).toEqual([null]);
    expect(alignWords(["Old title."], stored)).toEqual([
      [
        { start: 0.1, end: 0.4, text: "Old", paragraph: 0 },
        { start: 0.5, end: 0.9, text: "title.", paragraph: 0 },
      ],
    ]);
  });
});
