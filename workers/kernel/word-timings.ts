// Where each word of a narration is spoken (docs/narration.md "Word timings"). The render times every word it
// voices (workers/render/pipeline/word-timings.ts: eSpeak NG's own word events, or the characters
// of each sentence within its measured stretch of speech) on the audio's own timeline, exact at
// every join as the paragraph starts are, and stores them beside the audio as JSON
// (wordTimingsPath). The render reads normalised text (quotes folded, dashes spaced); the pages
// show the article's own text, so the stored words are aligned here to the words of each
// paragraph as narratedParagraphs gives it, by their letters and digits, which normalising keeps.
import { MASTER_SAMPLE_RATE, wordTimingsPath } from "./audio-objects";
import { wordsOf } from "./words";

/** A word of a narration: seconds from the start of the audio, its text, and the index of its paragraph (narratedParagraphs). */
export interface TimedWord {
  start: number;
  end: number;
  text: string;
  paragraph: number;
}

/** The stored document: `version` 1; `words` in speaking order, their text as the engine read it. */
interface StoredTimings {
  version: 1;
  words: TimedWord[];
}

/** Seconds to the millisecond: finer than any highlight needs, and a third of the size of doubles. */
const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** The JSON stored for words timed in samples at MASTER_SAMPLE_RATE (the render's timeline). */
export function timingsJson(words: { paragraph: number; text: string; start: number; end: number }[]): string {
  const doc: StoredTimings = {
    version: 1,
    words: words.map((w) => ({ start: ms(w.start / MASTER_SAMPLE_RATE), end: ms(w.end / MASTER_SAMPLE_RATE), text: w.text, paragraph: w.paragraph })),
  };
  return JSON.stringify(doc);
}

/** The stored word timings of the audio `key`, or null when it has none (rendered before word timings) or they cannot be read. */
export async function storedWords(env: Pick<Env, "AUDIO">, key: string): Promise<TimedWord[] | null> {
  const object = await env.AUDIO.get(wordTimingsPath(key));
  if (!object) return null;
  try {
    const doc = (await object.json()) as StoredTimings;
    return doc.version === 1 && Array.isArray(doc.words) ? doc.words : null;
  } catch {
    return null;
  }
}

/** Letters and digits only: what normalising the text for the engine never changes. */
const skeleton = (word: string) => word.normalize("NFC").replace(/[^\p{L}\p{N}]/gu, "");

/**
 * The words of each of `paragraphs` (wordsOf) with the times of the `stored` words they cover, or
 * null for a paragraph whose words do not match the stored ones (audio of another version of the
 * text). A word without letters or digits (a dash) takes no time: it starts and ends where the next
 * word starts.
 */
export function alignWords(paragraphs: string[], stored: TimedWord[]): (TimedWord[] | null)[] {
  const byParagraph = paragraphs.map((): TimedWord[] => []);
  for (const w of stored) byParagraph[w.paragraph]?.push(w);
  return paragraphs.map((text, paragraph) => {
    const shown = wordsOf(text);
    const spoken = byParagraph[paragraph];
    const ranges = (words: string[]) => {
      let at = 0;
      return words.map((w) => [at, (at += skeleton(w).length)] as const);
    };
    const shownRanges = ranges(shown);
    const spokenRanges = ranges(spoken.map((w) => w.text));
    if (spoken.length === 0 || shown.map(skeleton).join("") !== spoken.map((w) => skeleton(w.text)).join("")) return null;
    const words: (TimedWord | null)[] = shown.map((word, i) => {
      const [from, to] = shownRanges[i];
      if (from === to) return null;
      const covering = spoken.filter((_, j) => spokenRanges[j][0] < to && spokenRanges[j][1] > from);
      return { start: covering[0].start, end: Math.max(...covering.map((w) => w.end)), text: word, paragraph };
    });
    // Words without letters take the start of the next timed word (the paragraph's end after the last).
    let next = Math.max(...spoken.map((w) => w.end));
    for (let i = words.length - 1; i >= 0; i--) {
      const w = words[i];
      if (w) next = w.start;
      else words[i] = { start: next, end: next, text: shown[i], paragraph };
    }
    return words as TimedWord[];
  });
}

/**
 * Words timed by their characters within each paragraph's span (a paragraph lasts from its start to
 * the next one's), for audio rendered before word timings: right at every paragraph, close between.
 */
export function estimatedWords(paragraphs: string[], starts: number[], durationSeconds: number): TimedWord[][] {
  return paragraphs.map((text, paragraph) => {
    const words = wordsOf(text);
    const start = starts[paragraph];
    const end = starts[paragraph + 1] ?? durationSeconds;
    const total = words.reduce((n, w) => n + w.length + 1, 0) || 1;
    let at = 0;
    return words.map((word) => {
      const from = start + ((end - start) * at) / total;
      at += word.length + 1;
      return { start: ms(from), end: ms(start + ((end - start) * (at - 1)) / total), text: word, paragraph };
    });
  });
}

/**
 * The words of an article's paragraphs over its audio: the stored timings aligned to the text where
 * they match it, else estimated within each paragraph. Null without paragraph starts (no audio yet,
 * or audio rendered before timings): then no one may invent them.
 */
export async function paragraphWords(
  env: Pick<Env, "AUDIO">,
  audio: { key: string; durationSeconds: number },
  paragraphs: string[],
  starts: number[] | null,
): Promise<{ words: TimedWord[][]; measured: boolean[] } | null> {
  if (!starts) return null;
  const stored = await storedWords(env, audio.key);
  const aligned = stored ? alignWords(paragraphs, stored) : paragraphs.map(() => null);
  const estimated = estimatedWords(paragraphs, starts, audio.durationSeconds);
  return { words: aligned.map((a, i) => a ?? estimated[i]), measured: aligned.map((a) => a !== null) };
}
