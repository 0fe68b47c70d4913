// The one place text is made ready for the offline engine in its language: the lexicon first (a
// publisher's entry wins over any rule), then the numbers and dates eSpeak NG would misread
// (numbers.ts), then, in Japanese, the words written in kanji as their kana reading (readings.ts).
// Every rewrite keeps where each character came from, so the engine's word events, and with them the
// word timings, highlighting and transcripts, point at the text as written.
import { composed, espeakText, type LexiconEntry, type Replacement, type Rewritten, splice } from "../../kernel/lexicon";
import { numberReadings } from "./numbers";
import type { ObjectReader } from "./offline";
import { hasKanji, kanjiReadings } from "./readings";

/** The language of an eSpeak voice name ("de" of "de+f3", "pt" of "pt-br"). */
const languageOf = (voice: string) => voice.split(/[-+]/, 1)[0];

/** Spans of eSpeak phoneme input ("[[...]]", the lexicon's), which no rule may touch. */
function phonemeInput(text: string): Replacement[] {
  return Array.from(text.matchAll(/\[\[.*?\]\]/gs), (m) => ({ from: m.index, to: m.index + m[0].length, text: m[0] }));
}

/**
 * What eSpeak is given for `text` in `voice`, with the lexicon's entries applied; `read` reads the
 * Japanese dictionary from R2 when a Japanese text has kanji.
 */
export async function spokenText(text: string, voice: string, lexicon: readonly LexiconEntry[], read: ObjectReader | null): Promise<Rewritten> {
  const lexical = espeakText(text, lexicon);
  const language = languageOf(voice);
  const kept = phonemeInput(lexical.text);
  const numbers = numberReadings(lexical.text, language);
  const words = language === "ja" && hasKanji(lexical.text) ? await kanjiReadings(lexical.text, read) : [];
  // The first claim on a character wins: phoneme input, then numbers, then readings.
  const chosen: Replacement[] = [];
  for (const r of [...kept, ...numbers, ...words]) {
    if (!chosen.some((c) => r.from < c.to && c.from < r.to)) chosen.push(r);
  }
  chosen.sort((a, b) => a.from - b.from);
  return composed(lexical, splice(lexical.text, chosen));
}
