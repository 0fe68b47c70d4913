import { DEFAULT_GENDER, DEFAULT_LANGUAGE, PROVIDERS, priceOf, QUALITIES, VOICES, type VoiceOffer } from "../../kernel/voice-catalogue";

/**
 * The selection rule (docs/narration.md "Providers and the selection rule"). Offers are ordered by quality
 * (neural before formant), then by the provider's preference (Workers AI, then cloud providers, then
 * a self-hosted server, then the offline engine), then by price; ties keep catalogue order.
 *
 * - No voice asked for: every available offer of the default language and gender in that order, so
 *   the best available neural voice speaks and eSpeak only when nothing else is available.
 * - A voice asked for: that voice's offers by available providers, then, as fallbacks, the equivalent
 *   voices (same language and gender) of the other available offers. Null when the voice is unknown.
 *
 * `offers` is the catalogue, plus voices a self-hosted server lists (providers/availability.ts).
 */
export function candidates(voice: string | undefined, available: (offer: VoiceOffer) => boolean, offers: readonly VoiceOffer[] = VOICES): VoiceOffer[] | null {
  if (voice === undefined) return defaultOffers(offers).filter(available);
  const exact = offersOf(voice, offers);
  if (exact.length === 0) return null;
  const { language, gender } = exact[0];
  const equivalent = offers.filter((v) => v.id !== voice && v.language === language && v.gender === gender && available(v)).sort(bySelection);
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

/** Every offer of the default language and gender, in selection order: what speaks when no voice is asked for. */
export function defaultOffers(offers: readonly VoiceOffer[] = VOICES): VoiceOffer[] {
  return offers.filter((v) => v.language === DEFAULT_LANGUAGE && v.gender === DEFAULT_GENDER).sort(bySelection);
}

/** True when `a` sounds no worse than `b` (neural >= formant). */
export function atLeastAsGood(a: VoiceOffer, b: VoiceOffer): boolean {
  return QUALITIES.indexOf(a.quality) <= QUALITIES.indexOf(b.quality);
}
