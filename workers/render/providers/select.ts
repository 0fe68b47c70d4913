import { preferredTag, speaks } from "../../kernel/language";
import { DEFAULT_GENDER, DEFAULT_LANGUAGE, PROVIDERS, priceOf, QUALITIES, VOICES, type VoiceOffer } from "../../kernel/voice-catalogue";

/**
 * The selection rule (docs/narration.md "Providers and the selection rule"). Offers are ordered by quality
 * (neural before formant), then by the provider's preference (Workers AI, then cloud providers, then
 * a self-hosted server, then the offline engine), then by price; ties keep catalogue order.
 *
 * - No voice asked for: every available offer of the text's language (the default language when
 *   none is said; its preferred region, kernel/language.ts preferredTag) and of the default gender
 *   where it has voices of it, in that order, so the best available neural voice speaks and eSpeak
 *   only when nothing else is available. Fallback changes the engine, never the language.
 *   A publisher's default voice for the language (`preferred`, docs/publishers.md "Default voice per
 *   language") goes before them: its offers, then the catalogue's best of the same language.
 * - A voice asked for: that voice's offers by available providers, then, as fallbacks, the equivalent
 *   voices (same language and gender) of the other available offers. Null when the voice is unknown.
 *
 * `offers` is the catalogue, plus voices a self-hosted server lists (providers/availability.ts).
 */
export function candidates(
  voice: string | undefined,
  available: (offer: VoiceOffer) => boolean,
  offers: readonly VoiceOffer[] = VOICES,
  language: string = DEFAULT_LANGUAGE,
  preferred?: string,
): VoiceOffer[] | null {
  if (voice === undefined) return unaskedOffers(offers, language, preferred).filter(available);
  const exact = offersOf(voice, offers);
  if (exact.length === 0) return null;
  const { language: spoken, gender } = exact[0];
  const equivalent = offers.filter((v) => v.id !== voice && v.language === spoken && v.gender === gender && available(v)).sort(bySelection);
  return [...exact.filter(available), ...equivalent];
}

/** Offers in the order the selection rule tries them. */
export function bySelection(a: VoiceOffer, b: VoiceOffer): number {
  return (
    QUALITIES.indexOf(a.quality) - QUALITIES.indexOf(b.quality) ||
    PROVIDERS[a.provider].preference - PROVIDERS[b.provider].preference ||
    priceOf(a) - priceOf(b)
  );
}

/** Every offer of voice `id`, in selection order. */
export function offersOf(id: string, offers: readonly VoiceOffer[] = VOICES): VoiceOffer[] {
  return offers.filter((v) => v.id === id).sort(bySelection);
}

/**
 * Every offer of `language` (its preferred region) and the default gender, or of either gender when
 * the language has no voice of it, in selection order: what speaks when no voice is asked for.
 */
export function defaultOffers(offers: readonly VoiceOffer[] = VOICES, language: string = DEFAULT_LANGUAGE): VoiceOffer[] {
  const tag = preferredTag(language, offers);
  const spoken = offers.filter((v) => v.language === tag);
  const gendered = spoken.filter((v) => v.gender === DEFAULT_GENDER);
  return (gendered.length > 0 ? gendered : spoken).sort(bySelection);
}

/**
 * What speaks when no voice is asked for, in order: the offers of `preferred` when it speaks the
 * language, then defaultOffers.
 */
function unaskedOffers(offers: readonly VoiceOffer[], language: string, preferred?: string): VoiceOffer[] {
  const first = preferred === undefined ? [] : offersOf(preferred, offers).filter((o) => speaks(o, language));
  return [...first, ...defaultOffers(offers, language).filter((o) => !first.includes(o))];
}

/** True when `a` sounds no worse than `b` (neural >= formant). */
export function atLeastAsGood(a: VoiceOffer, b: VoiceOffer): boolean {
  return QUALITIES.indexOf(a.quality) <= QUALITIES.indexOf(b.quality);
}
