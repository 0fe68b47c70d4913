import { joinPieces, PIECE_SILENCE, pieceToInt16, type Break } from "../engine/join";
import { normalizeLoudness } from "../engine/loudness";
import type { Pcm16 } from "../engine/pcm";
import { resample } from "../engine/resample";
import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import { PROVIDERS, type VoiceOffer } from "../../kernel/voice-catalogue";
import type { SynthFailure } from "../providers/result";
import type { Synthesizer } from "../providers/synthesizer";
import type { LexiconEntry } from "../../kernel/lexicon";
import { mapBounded } from "./bounded";
import { splitText, type Passage } from "./chunk";
import { marksOf, pieceWords, type PieceWord } from "./word-timings";

/** A word of a voiced segment: the passage it belongs to, and [start, end) in samples of the segment's master. */
export interface VoicedWord {
  passage: number;
  text: string;
  start: number;
  end: number;
}

/**
 * A voiced segment: the 16-bit master at MASTER_SAMPLE_RATE and, per passage, the sample at which it
 * starts in the master (null: nothing audible from there on), and every word of the passages in
 * order with where it is spoken; or the first piece's failure.
 */
export type VoicedText = { ok: true; pcm: Pcm16; starts: (number | null)[]; words: VoicedWord[] } | SynthFailure;

/**
 * Voices a segment's passages with one provider and voice: each split within the provider's limit
 * at sentence boundaries, pieces synthesised concurrently (bounded), brought to the master rate,
 * joined without clicks with the pause each break calls for, and normalised to -16 LUFS integrated
 * with true peak at most -1 dBTP. Normalising changes levels, never lengths, so the join's starts
 * hold for the master. The first failing piece fails the whole text, so one article never mixes voices.
 * `lexicon` holds the pronunciation entries that apply (kernel/lexicon.ts); each engine applies them.
 */
export async function synthesizeText(passages: Passage[], offer: VoiceOffer, synthesizer: Synthesizer, lexicon: readonly LexiconEntry[] = []): Promise<VoicedText> {
  // A piece never spans two passages, so each passage starts with a piece of its own.
  const plan = passages.flatMap((passage, index) =>
    splitText(passage.text, PROVIDERS[offer.provider].maxCharsPerRequest).map((text, k) => ({ text, index, brk: k === 0 ? passage.brk : ("sentence" as Break) })),
  );
  const voiced = await synthesizePieces(plan.map((p) => p.text), offer, synthesizer, lexicon);
  if (!Array.isArray(voiced)) return voiced;
  const pieces = voiced.map((v) => v.pcm);
  // joinPieces empties `pieces` as it copies, and nothing else refers to them: the join peaks at
  // pieces plus master, and from then on the master is the only copy, normalised in place.
  const master = joinPieces(pieces, plan.map((p) => p.brk));
  normalizeLoudness(master.samples, master.sampleRate);
  const starts = passages.map((_, index) => master.starts[plan.findIndex((p) => p.index === index)] ?? null);
  // A piece's words move with the part of it the join kept: exact at every join, as the starts are.
  const words = voiced.flatMap((v, i) => {
    const at = master.starts[i] ?? master.samples.length;
    const [from, to] = master.spans[i];
    const place = (s: number) => at + Math.min(to - from, Math.max(0, s - from));
    return v.words.map((w) => ({ passage: plan[i].index, text: w.text, start: place(w.start), end: place(w.end) }));
  });
  return { ok: true, pcm: { samples: master.samples, sampleRate: master.sampleRate }, starts, words };
}

async function synthesizePieces(
  texts: string[],
  offer: VoiceOffer,
  synthesizer: Synthesizer,
  lexicon: readonly LexiconEntry[],
): Promise<{ pcm: Pcm16; words: PieceWord[] }[] | SynthFailure> {
  // Each piece is brought to the master rate and to 16 bits as it arrives, so the provider's copy
  // and the float copy are dropped early; its words are timed on it then, by the engine's marks
  // where it gave some.
  const results = await mapBounded(
    texts,
    PROVIDERS[offer.provider].concurrency,
    async (piece): Promise<{ ok: true; pcm: Pcm16; words: PieceWord[] } | SynthFailure> => {
      const r = await synthesizer.synthesize(piece, offer, lexicon);
      if (!r.ok) return r;
      const pcm = pieceToInt16(resample(r.pcm, MASTER_SAMPLE_RATE));
      return { ok: true, pcm, words: pieceWords(piece, pcm, PIECE_SILENCE, marksOf(r)) };
    },
    (r) => !r.ok,
  );
  // Pieces never started (after a failure) sit after that failure, so the loop returns before them.
  const pieces: { pcm: Pcm16; words: PieceWord[] }[] = [];
  for (const r of results) {
    if (!r.ok) return r;
    pieces.push({ pcm: r.pcm, words: r.words });
  }
  return pieces;
}
