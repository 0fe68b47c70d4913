import { estimatedWords, type TimedWord } from "../kernel/word-timings";
import { joinWords } from "../kernel/words";

/**
 * WebVTT transcripts built from the article text (https://www.w3.org/TR/webvtt1/). Each paragraph's
 * words carry where they are spoken: measured by the render (kernel/word-timings.ts), or for audio
 * rendered before word timings, each word's share of its paragraph's characters within the span
 * the render recorded for the paragraph (or of the whole text from 0, before paragraph timings).
 * Cues are sentences packed up to CUE_CHARS; each starts with its first word and lasts until the
 * next cue starts (the last of a paragraph, until the next paragraph does).
 */

/** Longest cue text, in characters (a two-line caption). */
const CUE_CHARS = 160;

/** A word that ends a sentence. */
const SENTENCE_END = /[.!?…。！？؟]$/;

/** Words packed into cues of at most CUE_CHARS, ending at a sentence end once past half of it; a longer sentence is cut between words. */
function cueGroups<W extends { text: string }>(words: W[]): W[][] {
  const cues: W[][] = [];
  let current: W[] = [];
  let chars = 0;
  for (const word of words) {
    if (current.length && chars + 1 + word.text.length > CUE_CHARS) {
      cues.push(current);
      current = [];
      chars = 0;
    }
    chars = current.length ? chars + 1 + word.text.length : word.text.length;
    current.push(word);
    if (SENTENCE_END.test(word.text) && chars > CUE_CHARS / 2) {
      cues.push(current);
      current = [];
      chars = 0;
    }
  }
  if (current.length) cues.push(current);
  return cues;
}

function timestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** WebVTT cue text escapes &, < and > (WebVTT §4.2.2); "-->" cannot then occur. */
function escapeCue(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A paragraph's timed words and where its span ends (the next paragraph's start, or the end of the audio). */
export interface TimedParagraph {
  words: TimedWord[];
  end: number;
}

/** The WebVTT document for `paragraphs`, in order. */
export function webVttOfWords(paragraphs: TimedParagraph[]): string {
  const blocks: string[] = [];
  for (const { words, end } of paragraphs) {
    const cues = cueGroups(words);
    cues.forEach((cue, i) => {
      const from = cue[0].start;
      const to = Math.max(cues[i + 1]?.[0].start ?? end, from + 0.001);
      blocks.push(`${blocks.length + 1}\n${timestamp(from)} --> ${timestamp(to)}\n${escapeCue(joinWords(cue.map((w) => w.text)))}`);
    });
  }
  return `${["WEBVTT", ...blocks].join("\n\n")}\n`;
}

/** A stretch of narrated text and where its narration starts, in seconds; it lasts until the next one starts. */
export interface TimedText {
  text: string;
  start: number;
}

/** The WebVTT document for `stretches` (in order) narrated in audio of `durationSeconds`, timed by characters within each. */
export function webVtt(stretches: TimedText[], durationSeconds: number): string {
  const starts = stretches.map((s) => s.start);
  const words = estimatedWords(
    stretches.map((s) => s.text),
    starts,
    durationSeconds,
  );
  return webVttOfWords(words.map((w, i) => ({ words: w, end: starts[i + 1] ?? durationSeconds })));
}
