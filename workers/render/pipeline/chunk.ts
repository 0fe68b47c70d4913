import { wordsOf } from "../../kernel/words";
import type { Break } from "../engine/join";

/**
 * Splits text into pieces of at most `maxChars`, cutting only between sentences where it can: a
 * sentence longer than the limit is cut between words (kernel/words.ts: Japanese and Thai too), and a word longer than the limit is cut
 * hard. Consecutive sentences share a piece while they fit. Pieces are trimmed and never empty.
 */
export function splitText(text: string, maxChars: number): string[] {
  const units = sentences(text).flatMap((s) => (s.length <= maxChars ? [s] : words(s, maxChars)));
  const pieces: string[] = [];
  let current = "";
  for (const unit of units) {
    if (current && current.length + 1 + unit.length > maxChars) {
      pieces.push(current);
      current = unit;
    } else {
      current = current ? `${current} ${unit}` : unit;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** Sentences by the Unicode sentence-boundary rules (UAX #29). */
function sentences(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment.trim()).filter(Boolean);
}

function words(sentence: string, maxChars: number): string[] {
  return wordsOf(sentence).flatMap((word) => {
    const cuts: string[] = [];
    for (let i = 0; i < word.length; i += maxChars) cuts.push(word.slice(i, i + maxChars));
    return cuts;
  });
}

/** A stretch of one paragraph voiced within one segment, and the break that precedes it. */
export interface Passage {
  /** Index of the paragraph it belongs to. */
  paragraph: number;
  text: string;
  brk: Break;
}

/**
 * The most characters of the first passage of all: a render's first unit is voiced, marked and
 * encoded whole before a listener hears anything (render-stream.ts), so a long first paragraph
 * gives its first sentences (about ten seconds of speech) a passage of their own, and the stream
 * starts once those are voiced (docs/narration.md "Listening while it renders").
 */
export const FIRST_PASSAGE_CHARS = 150;

/**
 * Cuts paragraphs into segments of at most `maxChars` characters (one between passages), keeping
 * paragraphs whole where they fit: a paragraph longer than the limit is cut between sentences
 * (splitText) and continues in the next segment after a sentence break. The first passage of all
 * follows the "start", every other paragraph's first passage a paragraph break; it holds at most
 * FIRST_PASSAGE_CHARS, the rest of its paragraph following after a sentence break. An empty
 * paragraph has no passage. Segments are never empty.
 */
export function segmentParagraphs(paragraphs: string[], maxChars: number): Passage[][] {
  const segments: Passage[][] = [];
  let current: Passage[] = [];
  let chars = 0;
  paragraphs.forEach((paragraph, index) => {
    const parts = paragraph.length <= maxChars ? (paragraph ? [paragraph] : []) : splitText(paragraph, maxChars);
    if (segments.length === 0 && current.length === 0 && parts.length > 0) {
      const [lead, ...rest] = splitText(parts[0], Math.min(FIRST_PASSAGE_CHARS, maxChars));
      if (rest.length > 0) parts.splice(0, 1, lead, rest.join(" "));
    }
    parts.forEach((text, k) => {
      const brk: Break = k > 0 ? "sentence" : segments.length === 0 && current.length === 0 ? "start" : "paragraph";
      if (current.length > 0 && chars + 1 + text.length > maxChars) {
        segments.push(current);
        current = [];
      }
      chars = current.length === 0 ? text.length : chars + 1 + text.length;
      current.push({ paragraph: index, text, brk });
    });
  });
  if (current.length > 0) segments.push(current);
  return segments;
}
