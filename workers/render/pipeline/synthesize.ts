import { joinPieces, pieceToInt16 } from "../engine/join";
import { normalizeLoudness } from "../engine/loudness";
import type { Pcm16 } from "../engine/pcm";
import { resample } from "../engine/resample";
import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import { PROVIDERS, type VoiceOffer } from "../../kernel/voice-catalogue";
import type { SynthFailure } from "../providers/result";
import type { Synthesizer } from "../providers/synthesizer";
import { mapBounded } from "./bounded";
import { splitText } from "./chunk";

/** A voiced text: the 16-bit master at MASTER_SAMPLE_RATE, or the first piece's failure. */
export type VoicedText = { ok: true; pcm: Pcm16 } | SynthFailure;

/**
 * Voices `text` with one provider and voice: split within the provider's limit at sentence
 * boundaries, pieces synthesised concurrently (bounded), brought to the master rate, joined without
 * clicks or gaps, and normalised to -16 LUFS integrated with true peak at most -1 dBTP. The first
 * failing piece fails the whole text, so one article never mixes voices.
 */
export async function synthesizeText(text: string, offer: VoiceOffer, synthesizer: Synthesizer): Promise<VoicedText> {
  const pieces = await synthesizePieces(text, offer, synthesizer);
  if (!Array.isArray(pieces)) return pieces;
  // joinPieces empties `pieces` as it copies, and nothing else refers to them: the join peaks at
  // pieces plus master, and from then on the master is the only copy, normalised in place.
  const master = joinPieces(pieces);
  normalizeLoudness(master.samples, master.sampleRate);
  return { ok: true, pcm: master };
}

async function synthesizePieces(text: string, offer: VoiceOffer, synthesizer: Synthesizer): Promise<Pcm16[] | SynthFailure> {
  const texts = splitText(text, PROVIDERS[offer.provider].maxCharsPerRequest);
  // Each piece is brought to the master rate and to 16 bits as it arrives, so the provider's copy
  // and the float copy are dropped early.
  const results = await mapBounded(
    texts,
    PROVIDERS[offer.provider].concurrency,
    async (piece): Promise<VoicedText> => {
      const r = await synthesizer.synthesize(piece, offer);
      return r.ok ? { ok: true, pcm: pieceToInt16(resample(r.pcm, MASTER_SAMPLE_RATE)) } : r;
    },
    (r) => !r.ok,
  );
  // Pieces never started (after a failure) sit after that failure, so the loop returns before them.
  const pieces: Pcm16[] = [];
  for (const r of results) {
    if (!r.ok) return r;
    pieces.push(r.pcm);
  }
  return pieces;
}
