// Word timings within one synthesised piece (docs/narration.md "Word timings"). An engine that reports where
// each word starts (eSpeak NG's word events, engine/offline.ts) is followed; for one that reports
// nothing, each sentence is placed on a stretch of speech measured in the audio (the pauses between
// sentences are silent) and its words share that stretch by their characters. Either way, each
// word's start is moved onto its first audible sample and its end back to its last, so a highlight
// never sits on a pause. The words are the piece's words as kernel/words.ts cuts them, in order.
import type { Pcm16 } from "../engine/pcm";
import type { SynthResult } from "../providers/result";
import { wordTokens, type WordToken } from "../../kernel/words";

/** Where an engine says a word starts: `char` is its UTF-16 offset in the text it was given, `at` seconds into the audio it returned. */
export interface WordMark {
  char: number;
  at: number;
}

/** A provider's result, with the engine's word marks when it reports them. */
export type TimedSynthResult = Exclude<SynthResult, { ok: true }> | (Extract<SynthResult, { ok: true }> & { words?: WordMark[] });

/** The word marks of a result, if its engine reported any. */
export function marksOf(result: SynthResult): WordMark[] | undefined {
  const words = (result as TimedSynthResult & { words?: WordMark[] }).words;
  return Array.isArray(words) && words.length > 0 ? words : undefined;
}

/** A word of a piece and where it is spoken: [start, end) in samples of the piece's audio. */
export interface PieceWord {
  text: string;
  start: number;
  end: number;
}

/** Audio kept around a word's audible part, so soft onsets and releases stay inside it (as the join's guard). */
const GUARD_MS = 15;
/** A stretch this long below the silence level counts as a pause between sentences. */
const MIN_PAUSE_MS = 120;
/** The resolution of the silence scan. */
const FRAME_MS = 10;

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/**
 * Times every word of `text` spoken in `pcm` (a piece at the master rate, as the join takes it).
 * `threshold` is the level under which a sample counts as silence. `marks` are the engine's own
 * word starts; without them the words are aligned by the characters of each sentence.
 */
export function pieceWords(text: string, pcm: Pcm16, threshold: number, marks?: WordMark[]): PieceWord[] {
  const tokens = wordTokens(text);
  if (tokens.length === 0) return [];
  const x = pcm.samples;
  const rate = pcm.sampleRate;
  const [first, last] = audibleBounds(x, threshold);
  if (last <= first) return tokens.map((t) => ({ text: t.text, start: first, end: first }));
  const starts = marks ? startsFromMarks(tokens, marks, rate, first, last) : startsFromSentences(text, tokens, x, rate, threshold, first, last);
  const guard = Math.round((GUARD_MS / 1000) * rate);
  return tokens.map((t, i) => {
    const from = starts[i];
    const to = Math.max(from, i + 1 < tokens.length ? starts[i + 1] : last);
    const [onset, release] = audibleBounds(x.subarray(from, to), threshold);
    if (release <= onset) return { text: t.text, start: from, end: to };
    return { text: t.text, start: Math.max(from, from + onset - guard), end: Math.min(to, from + release + guard) };
  });
}

/** [first audible sample, one past the last) of `x`; [0, 0) when it is silent. */
function audibleBounds(x: Int16Array, threshold: number): [number, number] {
  let start = 0;
  let end = x.length;
  while (start < end && Math.abs(x[start]) < threshold) start++;
  while (end > start && Math.abs(x[end - 1]) < threshold) end--;
  return start === end ? [0, 0] : [start, end];
}

/**
 * Starts from the engine's marks: a word starts at the earliest mark that falls in it (a mark in
 * the space before a word belongs to that word). A word the engine spoke without a mark of its own
 * (eSpeak reads "of the" as one) shares the stretch of the marked word before it by characters.
 */
function startsFromMarks(tokens: WordToken[], marks: WordMark[], rate: number, first: number, last: number): number[] {
  const marked: (number | undefined)[] = tokens.map(() => undefined);
  for (const { char, at } of marks) {
    const k = tokens.findIndex((t) => t.to > char);
    if (k === -1) continue;
    const sample = Math.min(last, Math.max(first, Math.round(at * rate)));
    marked[k] = Math.min(marked[k] ?? sample, sample);
  }
  // Marks come in speaking order; one out of order (a number read around its neighbours) is held back.
  let floor = first;
  marked.forEach((s, k) => {
    if (s === undefined) return;
    marked[k] = floor = Math.max(s, floor);
  });
  const starts = new Array<number>(tokens.length);
  let k = 0;
  while (k < tokens.length) {
    // A run: the marked word at k (or the piece's start) and the unmarked words after it.
    let end = k + 1;
    while (end < tokens.length && marked[end] === undefined) end++;
    const from = marked[k] ?? first;
    const to = end < tokens.length ? marked[end]! : last;
    for (const [i, s] of shareByCharacters(tokens.slice(k, end), from, to).entries()) starts[k + i] = s;
    k = end;
  }
  return starts;
}

/** The starts of `tokens` sharing [from, to) by characters (each word with the space after it). */
function shareByCharacters(tokens: WordToken[], from: number, to: number): number[] {
  const weights = tokens.map((t) => t.text.length + 1);
  const total = weights.reduce((n, w) => n + w, 0);
  let at = 0;
  return weights.map((w) => {
    const s = from + Math.round(((to - from) * at) / total);
    at += w;
    return s;
  });
}

/**
 * Starts for an engine that reports none: the piece's speech is cut at its pauses, each sentence
 * takes the stretch between the pauses nearest to where its characters say it should begin and end,
 * and its words share that stretch by characters. With fewer pauses than sentence breaks, the
 * sentences share the whole speech by characters.
 */
function startsFromSentences(text: string, tokens: WordToken[], x: Int16Array, rate: number, threshold: number, first: number, last: number): number[] {
  const sentences = Array.from(segmenter.segment(text), (s) => ({ from: s.index, to: s.index + s.segment.length })).filter((s) =>
    tokens.some((t) => t.from >= s.from && t.from < s.to),
  );
  const pauses = pausesOf(x, rate, threshold, first, last);
  // Sentence k > 0 begins where the chosen pause ends; its expected place is its character share.
  const bounds: number[] = [first];
  let used = -1;
  for (let k = 1; k < sentences.length; k++) {
    const expected = first + ((last - first) * sentences[k].from) / text.length;
    let best = -1;
    for (let p = used + 1; p < pauses.length - (sentences.length - 1 - k); p++) {
      if (best === -1 || Math.abs(pauses[p][1] - expected) < Math.abs(pauses[best][1] - expected)) best = p;
    }
    if (best === -1) {
      bounds.length = 0;
      break;
    }
    used = best;
    bounds.push(pauses[best][1]);
  }
  if (bounds.length !== sentences.length) return shareByCharacters(tokens, first, last);
  const starts: number[] = [];
  sentences.forEach((s, k) => {
    const words = tokens.filter((t) => t.from >= s.from && t.from < s.to);
    const end = k + 1 < sentences.length ? pauses.find((p) => p[1] === bounds[k + 1])![0] : last;
    starts.push(...shareByCharacters(words, bounds[k], end));
  });
  return starts;
}

/** The silent stretches of at least MIN_PAUSE_MS inside [first, last), as [start, end) samples. */
function pausesOf(x: Int16Array, rate: number, threshold: number, first: number, last: number): [number, number][] {
  const frame = Math.max(1, Math.round((FRAME_MS / 1000) * rate));
  const minimum = Math.round((MIN_PAUSE_MS / 1000) * rate);
  const pauses: [number, number][] = [];
  let quietFrom = -1;
  for (let at = first; at < last; at += frame) {
    let loud = false;
    for (let i = at; i < Math.min(last, at + frame) && !loud; i++) loud = Math.abs(x[i]) >= threshold;
    if (!loud && quietFrom === -1) quietFrom = at;
    if (loud && quietFrom !== -1) {
      if (at - quietFrom >= minimum) pauses.push([quietFrom, at]);
      quietFrom = -1;
    }
  }
  return pauses;
}
