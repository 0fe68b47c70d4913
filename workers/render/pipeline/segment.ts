import { joinGap, stronger, type Break } from "../engine/join";
import type { SynthFailure } from "../providers/result";
import type { Synthesizer } from "../providers/synthesizer";
import type { LexiconEntry } from "../../kernel/lexicon";
import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import type { RenderStoreRpc } from "../../kernel/render-contract";
import type { VoiceOffer } from "../../kernel/voice-catalogue";
import { timed, type RenderPhases } from "../phases";
import { mapBounded } from "./bounded";
import { paragraphKey } from "./cache-key";
import type { Passage } from "./chunk";
import { loadParagraph, storeParagraph } from "./paragraph-cache";
import { synthesizePassages, type VoicedPassage } from "./synthesize";

/** A word of a voiced segment: the passage it belongs to, and [start, end) in samples of the segment's master. */
export interface VoicedWord {
  passage: number;
  text: string;
  start: number;
  end: number;
}

/**
 * A voiced segment: its master as parts laid end to end (stored paragraphs and the silences
 * between them, never copied into one array) and its length in samples; per passage, the sample at
 * which it starts (null: nothing audible in it); every word of its passages in order.
 */
export interface VoicedSegment {
  parts: Int16Array[];
  samples: number;
  starts: (number | null)[];
  words: VoicedWord[];
}

/**
 * Stored paragraphs read or written at once: a segment can hold hundreds of short paragraphs, and a
 * Worker keeps at most six connections open at a time, queueing the rest.
 */
const OBJECTS_IN_FLIGHT = 6;

/** What a render did with its paragraphs: characters sent to the engine that spoke, and paragraphs found stored. */
export interface ParagraphTally {
  charactersSynthesized: number;
  paragraphsReused: number;
}

/** The pronunciation entries that apply to a text for the offer's engine, and their digest (kernel/lexicon.ts). */
export type Pronounce = (text: string) => Promise<{ entries: LexiconEntry[]; digest: string | null }>;

/**
 * Voices a segment's passages with one offer, reusing each passage already stored under its own key
 * (provider, voice, the pronunciations that apply to it, its text: cache-key.ts paragraphKey) and
 * voicing and storing the others, then lays them end to end with the pauses their breaks call for.
 * Stored passages are used as they are, so an unchanged paragraph's audio is byte for byte what it
 * was. Adds what it synthesised and reused to `tally`.
 */
export async function voiceSegment(
  store: RenderStoreRpc,
  segment: Passage[],
  offer: VoiceOffer,
  synthesizer: Synthesizer,
  pronounce: Pronounce,
  tally: ParagraphTally,
  phases?: RenderPhases,
): Promise<({ ok: true } & VoicedSegment) | SynthFailure> {
  const lexicons = await Promise.all(segment.map((p) => pronounce(p.text)));
  const keys = await Promise.all(segment.map((p, i) => paragraphKey(offer.provider, offer.id, p.text, lexicons[i].digest)));
  const voiced: (VoicedPassage | null)[] = await mapBounded(
    keys,
    OBJECTS_IN_FLIGHT,
    (key) => loadParagraph(store, key),
    () => false,
  );
  // A paragraph that appears twice (a repeated line, a refrain) is voiced once.
  const missing = voiced.flatMap((v, i) => (v === null && keys.indexOf(keys[i]) === i ? [i] : []));
  if (missing.length > 0) {
    const made = await timed(phases, "synthesisMs", () =>
      synthesizePassages(
        missing.map((i) => ({ text: segment[i].text, lexicon: lexicons[i].entries })),
        offer,
        synthesizer,
      ),
    );
    if (!made.ok) return made;
    await mapBounded(
      missing,
      OBJECTS_IN_FLIGHT,
      (i, k) => storeParagraph(store, keys[i], made.passages[k]),
      () => false,
    );
    missing.forEach((i, k) => {
      tally.charactersSynthesized += segment[i].text.length;
      keys.forEach((key, j) => {
        if (key === keys[i]) voiced[j] = made.passages[k];
      });
    });
  }
  tally.paragraphsReused += segment.length - missing.length;
  return { ok: true, ...layOut(segment, voiced as VoicedPassage[]) };
}

/**
 * Lays voiced passages end to end: each carries its own lead-in and tail, and the silence between
 * two makes up the pause of the later one's break (engine/join.ts joinGap). A silent passage takes
 * no room, and its break passes to the next passage when stronger, as in a join of pieces.
 */
export function layOut(passages: Passage[], voiced: VoicedPassage[]): VoicedSegment {
  const parts: Int16Array[] = [];
  const starts: (number | null)[] = [];
  const words: VoicedWord[] = [];
  let offset = 0;
  let pending: Break | null = null;
  passages.forEach((passage, i) => {
    const { samples, start } = voiced[i];
    const brk = stronger(pending, passage.brk);
    if (start === null) {
      starts.push(null);
      pending = brk;
      return;
    }
    pending = null;
    const gap = joinGap(brk, MASTER_SAMPLE_RATE);
    if (gap > 0) parts.push(new Int16Array(gap));
    offset += gap;
    starts.push(offset + start);
    for (const w of voiced[i].words) words.push({ passage: i, text: w.text, start: offset + w.start, end: offset + w.end });
    parts.push(samples);
    offset += samples.length;
  });
  return { parts, samples: offset, starts, words };
}
