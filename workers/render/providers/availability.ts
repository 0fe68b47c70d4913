import { PROVIDERS, priceOf, VOICES, type ProviderId, type VoiceOffer } from "../../kernel/voice-catalogue";
import type { VoiceCatalogueStatus } from "../../kernel/render-contract";
import { coolingUntil } from "./health";
import { bySelection, candidates } from "./select";
import type { Synthesizers } from "./synthesizer";

/** Which offers can be used now, as renders and GET /v1/voices both see it. */
export interface Availability {
  /** Every offer there is: the catalogue. */
  offers: readonly VoiceOffer[];
  /** Why `offer` cannot be used now, or null when it can. */
  reason(offer: VoiceOffer): string | null;
}

/**
 * Availability in this isolate now: an offer can be used when its provider is configured
 * (`missing` says why one is not) and is not sitting out a cool-down after failures (health.ts).
 */
export async function availability(synthesizers: Synthesizers, missing: Partial<Record<ProviderId, string>> = {}, now = Date.now()): Promise<Availability> {
  return {
    offers: VOICES,
    reason(offer) {
      if (!synthesizers[offer.provider]) return missing[offer.provider] ?? "provider not configured";
      const until = coolingUntil(offer.provider, now);
      if (until) return `provider cooling down after failures (until ${until.toISOString()})`;
      return null;
    },
  };
}

/**
 * The catalogue with what can be used now, in selection order, and the offer that speaks when no
 * voice is asked for (RenderService.voices, shown by GET /v1/voices).
 */
export async function voiceStatuses(synthesizers: Synthesizers, missing: Partial<Record<ProviderId, string>>): Promise<VoiceCatalogueStatus> {
  const now = await availability(synthesizers, missing);
  const chosen = candidates(undefined, (o) => now.reason(o) === null, now.offers)?.[0] ?? null;
  const voices = [...now.offers].sort(bySelection).map((o) => {
    const reason = now.reason(o);
    return {
      id: o.id,
      provider: o.provider,
      language: o.language,
      gender: o.gender,
      style: o.style,
      quality: o.quality,
      price_per_million_chars: priceOf(o),
      max_chars_per_request: PROVIDERS[o.provider].maxCharsPerRequest,
      default: o === chosen,
      available: reason === null,
      reason,
    };
  });
  return { default_voice: chosen?.id ?? null, default_provider: chosen?.provider ?? null, voices };
}
