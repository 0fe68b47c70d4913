import * as v from "valibot";
import { named } from "../core/schema-registry";
import { DEFAULT_LANGUAGE, VOICES, type VoiceOffer } from "./voice-catalogue";

/**
 * A narration's language: a BCP 47 tag ("de", "pt-BR", "ja"). A voice speaks a language when their
 * primary subtags agree ("pt" matches "pt-BR" and "pt-PT"); which region speaks first is the
 * selection rule's (render/providers/select.ts), and is never another language.
 */

/** Where a narration's language came from: the request, or detection from its text. */
export const LANGUAGE_SOURCES = ["given", "detected"] as const;
export type LanguageSource = (typeof LANGUAGE_SOURCES)[number];

/** The language of a narration and where it came from. */
export interface NarrationLanguage {
  language: string;
  language_source: LanguageSource;
}

/** The tag canonicalised by the well-formed-tag check of RFC 5646 that Intl implements; null for a malformed tag. */
export function canonicalTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** `language` of a request body: a BCP 47 tag, canonicalised ("PT-br" becomes "pt-BR"). */
export const LanguageField = named(
  "Language",
  v.pipe(
    v.string(),
    v.maxLength(35),
    v.check((tag) => canonicalTag(tag) !== null, "must be a BCP 47 language tag (de, pt-BR, ja)"),
    v.transform((tag) => canonicalTag(tag)!),
    v.description(
      "BCP 47 language tag of the text (de, pt-BR, ja, ar). When absent it is detected from the text; a language no engine can speak is 422 naming it. A job for an article_slug is narrated in its article's language.",
    ),
  ),
);

/** The response fields that say a narration's language. */
export const LanguageFields = {
  language: v.pipe(v.string(), v.description("BCP 47 tag of the language the narration is spoken in.")),
  language_source: named("LanguageSource", v.pipe(v.picklist(LANGUAGE_SOURCES), v.description("given: the request said it; detected: read from the text."))),
};

/** The primary language subtag: "pt" of "pt-BR". */
export const primaryLanguage = (tag: string) => tag.split("-", 1)[0].toLowerCase();

/** True when `offer` speaks `language`. */
export const speaks = (offer: Pick<VoiceOffer, "language">, language: string) => primaryLanguage(offer.language) === primaryLanguage(language);

/** True when some engine of the catalogue has a voice of `language`. */
export function spokenByAnEngine(language: string, offers: readonly VoiceOffer[] = VOICES): boolean {
  return offers.some((o) => speaks(o, language));
}

/**
 * The tag whose voices speak first for `language`: itself when a voice has exactly it, else the
 * default language's region for its own language ("en" speaks as en-US), else the catalogue's first.
 */
export function preferredTag(language: string, offers: readonly VoiceOffer[]): string | null {
  const matching = offers.filter((o) => speaks(o, language));
  if (matching.some((o) => o.language.toLowerCase() === language.toLowerCase()))
    return matching.find((o) => o.language.toLowerCase() === language.toLowerCase())!.language;
  if (speaks({ language: DEFAULT_LANGUAGE }, language)) return DEFAULT_LANGUAGE;
  return matching[0]?.language ?? null;
}

/** Scripts written right to left (Unicode script codes). */
const RTL_SCRIPTS = new Set(["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr"]);

/**
 * The direction a language is written in, from its likely script (Intl.Locale maximize: "ar" is
 * Arab, "fa-Latn" Latin): what an article's page and embed put in `dir`.
 */
export function textDirection(language: string): "ltr" | "rtl" {
  try {
    return RTL_SCRIPTS.has(new Intl.Locale(language).maximize().script ?? "") ? "rtl" : "ltr";
  } catch {
    return "ltr";
  }
}

/**
 * The voice a publisher set for `language` (docs/publishers.md "Default voice per language"): the one
 * set for its exact tag, else for its primary subtag ("pt" serves "pt-BR"); a tag of another region
 * never serves. Undefined when none is set or the one set no longer speaks the language.
 */
export function defaultVoiceOf(defaults: Readonly<Record<string, string>>, language: string, offers: readonly VoiceOffer[] = VOICES): string | undefined {
  const tag =
    Object.keys(defaults).find((t) => t.toLowerCase() === language.toLowerCase()) ??
    Object.keys(defaults).find((t) => t.toLowerCase() === primaryLanguage(language));
  const voice = tag === undefined ? undefined : defaults[tag];
  return voice !== undefined && offers.some((o) => o.id === voice && speaks(o, language)) ? voice : undefined;
}
