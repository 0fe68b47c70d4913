import { kokoroVoice, PROVIDERS, VOICES, type ProviderId, type VoiceOffer } from "../../kernel/voice-catalogue";
import { voiceStatusOf, type VoiceCatalogueStatus } from "../../kernel/render-contract";
import { coolingUntil } from "./health";
import { bySelection, candidates } from "./select";
import type { Synthesizer, Synthesizers, VoiceListing } from "./synthesizer";

/** Which offers can be used now, as renders and GET /v1/voices both see it. */
export interface Availability {
  /** Every offer there is: the catalogue, and the voices a self-hosted server lists beyond it. */
  offers: readonly VoiceOffer[];
  /** Why `offer` cannot be used now, or null when it can. */
  reason(offer: VoiceOffer): string | null;
}

/**
 * Availability in this isolate now: an offer can be used when its provider is configured
 * (`missing` says why one is not), is not sitting out a cool-down after failures (health.ts) and,
 * for a provider whose voices are its server's (self-hosted), when the server lists the voice.
 */
export async function availability(synthesizers: Synthesizers, missing: Partial<Record<ProviderId, string>> = {}, now = Date.now()): Promise<Availability> {
  const listings = new Map<ProviderId, VoiceListing>();
  await Promise.all(
    (Object.entries(synthesizers) as [ProviderId, Synthesizer][]).map(async ([id, s]) => {
      if (s.voices) listings.set(id, await s.voices());
    }),
  );
  const listed = [...listings].flatMap(([provider, listing]) =>
    "names" in listing ? listing.names.filter((n) => !VOICES.some((v) => v.provider === provider && v.native === n)).map((n) => listedOffer(provider, n)) : [],
  );
  return {
    offers: listed.length > 0 ? [...VOICES, ...listed] : VOICES,
    reason(offer) {
      if (!synthesizers[offer.provider]) return missing[offer.provider] ?? "provider not configured";
      const until = coolingUntil(offer.provider, now);
      if (until) return `provider cooling down after failures (until ${until.toISOString()})`;
      const listing = listings.get(offer.provider);
      if (listing && "error" in listing) return `the self-hosted server did not answer (${listing.error})`;
      if (listing && "names" in listing && !listing.names.includes(offer.native)) return "the self-hosted server does not list this voice";
      return null;
    },
  };
}

/**
 * A voice a server lists that the catalogue does not name: its language and gender from a catalogue
 * voice of the same id (a server that names its voices after OpenAI's), else from a Kokoro name, else unknown.
 */
function listedOffer(provider: ProviderId, name: string): VoiceOffer {
  const known = VOICES.find((v) => v.id === name);
  const described = known ? { language: known.language, gender: known.gender } : (kokoroVoice(name) ?? { language: "und", gender: "neutral" as const });
  return { id: name, provider, native: name, ...described, style: "listed by the self-hosted server", quality: PROVIDERS[provider].quality };
}

/**
 * The catalogue with what can be used now, in selection order, and the offer that speaks when no
 * voice is asked for (RenderService.voices, shown by GET /v1/voices).
 */
export async function voiceStatuses(synthesizers: Synthesizers, missing: Partial<Record<ProviderId, string>>): Promise<VoiceCatalogueStatus> {
  const now = await availability(synthesizers, missing);
  const chosen = candidates(undefined, (o) => now.reason(o) === null, now.offers)?.[0] ?? null;
  const voices = [...now.offers].sort(bySelection).map((o) => voiceStatusOf(o, o === chosen, now.reason(o)));
  return { default_voice: chosen?.id ?? null, default_provider: chosen?.provider ?? null, voices };
}
