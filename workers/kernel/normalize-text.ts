import { paragraphsOf } from "./paragraph-timings";

/**
 * The text a cache key covers. Two inputs that read aloud the same must get the same key, so:
 * Unicode NFC (a precomposed and a decomposed "é" are one character), typographic quotes and
 * dashes folded to ASCII, zero-width and control characters dropped, every run of whitespace
 * (including newlines and non-breaking spaces) made one space, and the ends trimmed. Case and
 * punctuation stay: they change how the text is spoken.
 */
export function normaliseText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\u2012\u2013\u2014\u2015]/g, " - ")
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, "")
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, "")
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * The paragraphs of a text as the render keys and voices them: split as paragraphsOf splits them and
 * each normalised (normaliseText). The render joins them with a line break for the cache key, and the
 * API Worker reads an article the same way to find whose narration a lexicon change touches.
 */
export function keyedParagraphs(text: string): string[] {
  return paragraphsOf(text).map(normaliseText);
}
