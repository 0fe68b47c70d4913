import { eld } from "eld/extrasmall";
import { ValidationError } from "../core/errors";
import { DEFAULT_LANGUAGE } from "./voice-catalogue";
import { type NarrationLanguage, primaryLanguage, spokenByAnEngine } from "./language";

/**
 * Language detection with eld's extra-small n-gram set (docs/narration.md "Languages" says why eld
 * over franc-min and tinyld): 60 languages, right on every one of the short test sentences, about
 * 0.2 ms a sentence. An article mixing languages is spoken in the one most of its text is in.
 */

/** Enough text to tell the main language; more costs time and changes nothing. */
const SAMPLE_CHARS = 4_000;

/** The ISO 639-1 code of the language `text` is in, or null when detection is not sure. */
export function detectLanguage(text: string): string | null {
  const result = eld.detect(text.slice(0, SAMPLE_CHARS));
  return result.language && result.isReliable() ? result.language : null;
}

/** The default language's primary subtag: what speaks when the text is too short to tell. */
const FALLBACK = primaryLanguage(DEFAULT_LANGUAGE);

/**
 * The language a narration is spoken in: `given` when the request says it, else the detected one
 * (detectedLanguage). A given language no engine speaks is a 422 naming it, at `loc` (the request
 * field), and nothing is changed; a detected one is never refused, since a few words can read as
 * another language (a publisher who knows better gives `language`).
 */
export function narrationLanguage(given: string | undefined, text: string, loc: (string | number)[] = ["body", "language"]): NarrationLanguage {
  if (given === undefined) return detectedLanguage(text);
  if (!spokenByAnEngine(given)) throw new ValidationError([{ loc, msg: `no engine speaks the language ${given}`, type: "unsupported_language" }]);
  return { language: given, language_source: "given" };
}

/**
 * The detected language of a text: one no engine speaks, or too little text to tell, is read in the
 * default language rather than refused. `declared` is what the text's source says of itself (a web
 * page's `lang`): used only when the text cannot tell, since site templates often declare one language
 * for every page.
 */
export function detectedLanguage(text: string, declared?: string | null): NarrationLanguage {
  const found = detectLanguage(text);
  const stated = declared ? primaryLanguage(declared) : null;
  const language = [found, stated].find((l) => l && /^[a-z]{2,3}$/.test(l) && spokenByAnEngine(l)) ?? FALLBACK;
  return { language, language_source: "detected" };
}
