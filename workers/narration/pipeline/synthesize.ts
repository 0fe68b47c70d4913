import { joinPieces } from "../engine/join";
import { normalizeLoudness } from "../engine/loudness";
import type { Pcm } from "../engine/pcm";
import { resample } from "../engine/resample";
import { MASTER_SAMPLE_RATE } from "../objects";
import { PROVIDERS, type VoiceOffer } from "../providers/catalogue";
import type { SynthResult } from "../providers/result";
import type { Synthesizer } from "../providers/synthesizer";
import { mapBounded } from "./bounded";
import { splitText } from "./chunk";

/** Provider requests in flight for one render: enough to hide latency, few enough to respect rate limits. */
export const PIECE_CONCURRENCY = 4;

/**
 * Voices `text` with one provider and voice: split within the provider's limit at sentence
 * boundaries, pieces synthesised concurrently (bounded), brought to the master rate, joined without
 * clicks or gaps, and normalised to -16 LUFS integrated with true peak at most -1 dBTP. The first
 * failing piece fails the whole text, so one article never mixes voices.
 */
export async function synthesizeText(text: string, offer: VoiceOffer, synthesizer: Synthesizer): Promise<SynthResult> {
  const joined = await synthesizeJoined(text, offer, synthesizer);
  if (!joined.ok) return joined;
  // The pieces are unreachable by now: normalising works in place on the one joined signal.
  normalizeLoudness(joined.pcm.samples, joined.pcm.sampleRate);
  return joined;
}

async function synthesizeJoined(text: string, offer: VoiceOffer, synthesizer: Synthesizer): Promise<SynthResult> {
  const pieces = splitText(text, PROVIDERS[offer.provider].maxCharsPerRequest);
  // Each piece is brought to the master rate as it arrives, so the provider's copy is dropped early.
  const results = await mapBounded(
    pieces,
    PIECE_CONCURRENCY,
    async (piece): Promise<SynthResult> => {
      const r = await synthesizer.synthesize(piece, offer);
      return r.ok ? { ok: true, pcm: resample(r.pcm, MASTER_SAMPLE_RATE) } : r;
    },
    (r) => !r.ok,
  );
  const pcms: Pcm[] = [];
  for (const r of results) {
    if (!r) continue; // never started: an earlier piece failed
    if (!r.ok) return r;
    pcms.push(r.pcm);
  }
  return { ok: true, pcm: joinPieces(pcms) };
}
