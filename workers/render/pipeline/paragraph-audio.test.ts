import { store } from "../../../test/support/render-store";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { detectSilences } from "../../../test/support/audio-probe";
import { narratedText } from "../../kernel/article-text";
import { audioObjectPath } from "../../kernel/audio-objects";
import { narratedParagraphs, paragraphStarts } from "../../kernel/paragraph-timings";
import { offlineSynthesizer } from "../engine/offline";
import { renderText } from "./render";
import { encodeStored } from "./store";

// Paragraphs of very different speaking rates: years and large numbers are read as many words, so
// a paragraph's share of the characters is far from its share of the audio.
const ARTICLE = {
  title: "The budget vote",
  bodyText: [
    "The council met on Tuesday. Residents came to listen.",
    "In 1987, 2003 and 2019 the totals were 4,512,337 and 9,870,221. In 2024 they were 12,004,918.",
    "The plan passed. Work begins in spring.",
    "Cycling groups welcomed the decision, saying the new lanes would make the city safer for everyone. The mayor thanked the residents who had waited two years for an answer.",
  ].join("\n\n"),
};

/** Level under which ffmpeg's silencedetect counts a pause (the join's pauses are digital silence). */
const NOISE_DB = -50;
/** Shortest pause looked for: longer than the closure of a stop consonant, shorter than any break. */
const MIN_PAUSE = 0.1;

// One render, its three encodings checked against the starts it recorded. The MP3 is what the
// player plays; Opus and WAV are built from the same master and share its timeline.
describe("paragraph timings on a rendered file (ffmpeg silencedetect)", () => {
  it("each recorded start is where the paragraph is heard to begin, paragraph pauses are longer than sentence pauses, and none passes 700 ms", async () => {
    const rendered = await renderText(store, { text: narratedText(ARTICLE), voice: "en-US-male" }, { offline: offlineSynthesizer });
    const starts = await paragraphStarts(env, { ...ARTICLE, audioKey: rendered.key });
    expect(starts).toHaveLength(narratedParagraphs(ARTICLE).length);
    await encodeStored(store, rendered.key, "wav");

    for (const format of ["mp3", "opus", "wav"] as const) {
      const bytes = await (await env.AUDIO.get(audioObjectPath(rendered.key, format)))!.arrayBuffer();
      const silences = await detectSilences(bytes, format, NOISE_DB, MIN_PAUSE);
      // The lead-in and the tail are edges of the file, not pauses between words.
      const pauses = silences.filter(([start, end]) => start > 0 && end < rendered.duration_seconds - 0.05);
      const paragraphPauses: number[] = [];
      starts!.forEach((at, i) => {
        // The silence before the paragraph ends where its speech begins: just after the recorded
        // start (the join keeps 15 ms before the onset, and an MP3 without a gapless header plays
        // LAME's 46 ms delay first), and never before it, so a highlight never trails the voice. In
        // the master (and WAV) every sample before the start is digital silence; Opus's MDCT spreads
        // an onset up to its 2.5 ms window overlap earlier (pre-echo), which a paragraph normalised
        // louder on its own can lift over the detector's level.
        const before = silences.reduce((best, s) => (Math.abs(s[1] - at) < Math.abs(best[1] - at) ? s : best));
        const onset = before[1] - at;
        expect(onset, `${format} paragraph ${i} starts at ${at}, speech at ${before[1]}`).toBeGreaterThanOrEqual(format === "opus" ? -0.0025 : 0);
        expect(onset, `${format} paragraph ${i} starts at ${at}, speech at ${before[1]}`).toBeLessThanOrEqual(0.15);
        if (i > 0) paragraphPauses.push(before[1] - before[0]);
      });
      const sentencePauses = pauses.filter(([start, end]) => !paragraphPauses.includes(end - start)).map(([start, end]) => end - start);
      expect(sentencePauses.length, `${format} sentence pauses`).toBeGreaterThan(0);
      // About 0.6 s in the master. Opus's band energies decay over a few frames after a loud ending
      // (the title, normalised on its own, ends loud), shortening the pause it is heard to have by up
      // to 0.1 s; it stays 0.15 s over the longest sentence pause.
      expect(Math.min(...paragraphPauses), `${format} paragraph pauses ${paragraphPauses}`).toBeGreaterThan(0.5);
      expect(Math.min(...paragraphPauses), `${format} paragraph pauses vs sentence pauses ${sentencePauses}`).toBeGreaterThan(
        Math.max(...sentencePauses) + (format === "opus" ? 0.15 : 0.2),
      );
      expect(Math.max(...pauses.map(([start, end]) => end - start)), `${format} longest pause`).toBeLessThanOrEqual(0.7);
    }

    // The test tells real timings from estimates: shares of the characters put a paragraph far
    // from where it is heard (the numbers paragraph is read much slower than its length suggests).
    const text = narratedText(ARTICLE);
    const byChars = narratedParagraphs(ARTICLE).map((p) => (text.indexOf(p) / text.length) * rendered.duration_seconds);
    expect(Math.max(...byChars.map((at, i) => Math.abs(at - starts![i])))).toBeGreaterThan(2);
  }, 120_000);
});
