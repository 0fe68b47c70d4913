// The words of a text, as the render times them and the pages, transcripts and search show them
// (docs/narration.md "Word timings"). Most scripts put spaces between words; Chinese, Japanese,
// Thai, Lao, Khmer and Burmese do not, so a run of those is cut at the word boundaries of
// Intl.Segmenter (ICU's dictionary break iterator, which workerd ships).

/** A character of a script written without spaces between its words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** True when `text` has a character of a script written without spaces between words. */
export const hasUnspacedScript = (text: string) => UNSPACED.test(text);

/** A word of a text and where it is: [from, to) in UTF-16 units. */
export interface WordToken {
  text: string;
  from: number;
  to: number;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

/**
 * The words of `text` in order: its whitespace-separated tokens, each token of an unspaced script
 * cut further at Intl.Segmenter's word boundaries. Punctuation stays with the word before it (with
 * the word after it at a token's start), so every character but whitespace is in exactly one word.
 */
export function wordTokens(text: string): WordToken[] {
  const words: WordToken[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const token = m[0];
    if (!hasUnspacedScript(token)) {
      words.push({ text: token, from: m.index, to: m.index + token.length });
      continue;
    }
    let word: WordToken | null = null;
    let hasLetters = false;
    for (const s of segmenter.segment(token)) {
      const at = m.index + s.index;
      if (word && s.isWordLike && hasLetters) {
        words.push(word);
        word = null;
        hasLetters = false;
      }
      word ??= { text: "", from: at, to: at };
      word.text += s.segment;
      word.to = at + s.segment.length;
      hasLetters ||= s.isWordLike === true;
    }
    if (word) words.push(word);
  }
  return words;
}

/** The words of `text` (wordTokens), their text only. */
export const wordsOf = (text: string): string[] => wordTokens(text).map((w) => w.text);

/** Words written back as text: a space between two words unless either side of the join is of an unspaced script. */
export function joinWords(words: readonly string[]): string {
  let out = "";
  for (const w of words) {
    if (out && !(hasUnspacedScript(out.at(-1)!) || hasUnspacedScript(w[0] ?? ""))) out += " ";
    out += w;
  }
  return out;
}
