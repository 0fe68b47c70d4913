import { joinPieces, PIECE_SILENCE, pieceToInt16, type Break } from "../engine/join";
import { normalizeLoudness } from "../engine/loudness";
import type { Pcm16 } from "../engine/pcm";
import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import { PROVIDERS, type VoiceOffer } from "../../kernel/voice-catalogue";
import type { SynthFailure } from "../providers/result";
import type { Synthesizer } from "../providers/synthesizer";
import type { LexiconEntry } from "../../kernel/lexicon";
import { mapBounded } from "./bounded";
import { splitText } from "./chunk";
import { marksOf, pieceWords, type PieceWord } from "./word-timings";

/** A passage to voice: its normalised text and the pronunciation entries that apply to it (kernel/lexicon.ts). */
export interface PassageText {
  text: string;
  lexicon: readonly LexiconEntry[];
}

/**
 * A passage voiced on its own, as it is stored and reused (paragraph-cache.ts): its 16-bit master at
 * MASTER_SAMPLE_RATE, from the lead-in before its first word to the tail after its last (join.ts
 * PAUSE_MS.start at both ends), normalised on its own; the sample where its speech starts (null and
 * no samples when nothing in it is audible); and its words, [start, end) in samples of that master.
 */
export interface VoicedPassage {
  samples: Int16Array;
  start: number | null;
  words: PieceWord[];
}

/**
 * Voices passages with one provider and voice, each into audio of its own: each split within the
 * provider's limit at sentence boundaries, the pieces of all of them synthesised concurrently
 * (bounded), brought to the master rate, joined per passage without clicks with a sentence pause
 * between pieces, and normalised to -16 LUFS integrated with true peak at most -1 dBTP. A passage's
 * audio depends on its text, voice and pronunciations only, never on its neighbours, so it can be
 * stored under those and laid beside any other (layOut). The first failing piece fails them all, so
 * one article never mixes voices.
 */
export async function synthesizePassages(
  passages: PassageText[],
  offer: VoiceOffer,
  synthesizer: Synthesizer,
): Promise<{ ok: true; passages: VoicedPassage[] } | SynthFailure> {
  const plan = passages.flatMap((passage, index) =>
    splitText(passage.text, PROVIDERS[offer.provider].maxCharsPerRequest).map((text, k) => ({
      text,
      index,
      lexicon: passage.lexicon,
      brk: (k === 0 ? "start" : "sentence") as Break,
    })),
  );
  const voiced = await synthesizePieces(plan, offer, synthesizer);
  if (!Array.isArray(voiced)) return voiced;
  return {
    ok: true,
    passages: passages.map((_, index) => {
      const mine = plan.flatMap((p, i) => (p.index === index ? [{ ...voiced[i], brk: p.brk }] : []));
      return mine.length ? joinPassage(mine) : { samples: new Int16Array(0), start: null, words: [] };
    }),
  };
}

/** One passage's pieces joined and normalised; its words move with the part of each piece the join kept. */
function joinPassage(pieces: { pcm: Pcm16; words: PieceWord[]; brk: Break }[]): VoicedPassage {
  // The pieces are dropped once every passage is joined: a segment peaks at its pieces plus its
  // passages' masters (4 bytes a sample, as one join of the whole segment did), then 2 bytes a sample.
  const master = joinPieces(
    pieces.map((p) => p.pcm),
    pieces.map((p) => p.brk),
  );
  if (master.starts[0] === null) return { samples: new Int16Array(0), start: null, words: [] };
  normalizeLoudness(master.samples, master.sampleRate);
  const words = pieces.flatMap((piece, i) => {
    const at = master.starts[i] ?? master.samples.length;
    const [from, to] = master.spans[i];
    const place = (s: number) => at + Math.min(to - from, Math.max(0, s - from));
    return piece.words.map((w) => ({ text: w.text, start: place(w.start), end: place(w.end) }));
  });
  return { samples: master.samples, start: master.starts[0], words };
}

async function synthesizePieces(
  plan: { text: string; lexicon: readonly LexiconEntry[] }[],
  offer: VoiceOffer,
  synthesizer: Synthesizer,
): Promise<{ pcm: Pcm16; words: PieceWord[] }[] | SynthFailure> {
  // Each piece is brought to the master rate and to 16 bits as it arrives, in one step, so the
  // provider's copy is dropped early; its words are timed on it then, by the engine's marks where it
  // gave some.
  const results = await mapBounded(
    plan,
    PROVIDERS[offer.provider].concurrency,
    async ({ text, lexicon }): Promise<{ ok: true; pcm: Pcm16; words: PieceWord[] } | SynthFailure> => {
      const r = await synthesizer.synthesize(text, offer, lexicon);
      if (!r.ok) return r;
      const pcm = pieceToInt16(r.pcm, MASTER_SAMPLE_RATE);
      return { ok: true, pcm, words: pieceWords(text, pcm, PIECE_SILENCE, marksOf(r)) };
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
