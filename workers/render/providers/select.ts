import { DEFAULT_VOICE, priceOf, VOICES, type ProviderId, type VoiceOffer } from "../../kernel/voice-catalogue";

/**
 * The selection rule (README "Provider selection"): for the requested voice (the default voice
 * when none), the offers of that voice by available providers, cheapest first; after them, as
 * fallbacks, the equivalent voices (same language and gender) of the other available providers,
 * cheapest first. Ties keep catalogue order. Null when the voice is not in the catalogue.
 */
export function candidates(voice: string | undefined, available: (p: ProviderId) => boolean): VoiceOffer[] | null {
  const id = voice ?? DEFAULT_VOICE;
  const exact = offersOf(id);
  if (exact.length === 0) return null;
  const { language, gender } = exact[0];
  const first = exact.filter((v) => available(v.provider));
  const equivalent = VOICES.filter(
    (v) => v.id !== id && v.language === language && v.gender === gender && available(v.provider),
  ).sort(byPrice);
  return [...first, ...equivalent];
}

const byPrice = (a: VoiceOffer, b: VoiceOffer) => priceOf(a) - priceOf(b);

/** Every provider's offer of voice `id`, cheapest first (ties in catalogue order). */
export function offersOf(id: string): VoiceOffer[] {
  return VOICES.filter((v) => v.id === id).sort(byPrice);
}
