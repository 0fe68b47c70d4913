import { joinGap, stronger, type Break } from "../engine/join";
import { unitPadding } from "../engine/units";
import type { SynthFailure } from "../providers/result";
import type { Synthesizer } from "../providers/synthesizer";
import type { LexiconEntry } from "../../kernel/lexicon";
import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import type { RenderStoreRpc } from "../../kernel/render-contract";
import { PROVIDERS, type VoiceOffer } from "../../kernel/voice-catalogue";
import { timed, type RenderPhases } from "../phases";
import { paragraphKey } from "./cache-key";
import type { Passage } from "./chunk";
import { loadParagraphHeads, storeParagraph, type StoredParagraph, type StoredSamples } from "./paragraph-cache";
import type { Later, StoredUnit } from "./store";
import { loggableError } from "../../core/errors";
import { loadUnits, unitObjectPath } from "./unit-cache";
import { synthesizePassages, type VoicedPassage } from "./synthesize";
import { inTurn, type Seat } from "./turns";
import { markId, markPassages } from "./watermark";

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
 * Voiced paragraphs stored at once: a segment can hold hundreds of short paragraphs, and a Worker
 * keeps at most six connections open at a time, queueing the rest.
 */
const WRITES_IN_FLIGHT = 6;

/**
 * What a render did with its paragraphs: characters sent to the engine that spoke, paragraphs found
 * stored, paragraphs encoded (the others' encoded units were found stored: unit-cache.ts), and the
 * watermark ids its paragraphs carry (watermark.ts markId), voiced or found.
 */
export interface ParagraphTally {
  charactersSynthesized: number;
  paragraphsReused: number;
  paragraphsEncoded: number;
  markIds: Set<string>;
}

/** A part of a master: samples, or a stored paragraph's samples not read yet (paragraph-cache.ts). */
export type MasterPart = Int16Array | StoredSamples;

/** A passage as it is laid: voiced here, or found stored with its samples left in the store. */
type Laid = VoicedPassage | StoredParagraph;

/** Encodes a unit, or lays its stored encodings (store.ts RenderWriter.add); true when it encoded. */
export type Emit = (parts: MasterPart[], unit: StoredUnit) => Promise<boolean>;

/**
 * Whether a render is still its job's: a Queue render of a job a listener's stream took over
 * (RenderStoreRpc.claimJob) stops rather than voice the rest a second time.
 */
export type HoldsJob = () => Promise<boolean>;

/** The pronunciation entries that apply to a text for the offer's engine, and their digest (kernel/lexicon.ts). */
export type Pronounce = (text: string) => Promise<{ entries: LexiconEntry[]; digest: string | null }>;

/**
 * Voices a segment's passages with one offer, in order, reusing each passage already stored under its
 * own key (provider, voice, the pronunciations that apply to it, its text, `tenant`: cache-key.ts paragraphKey)
 * and voicing and storing the others, and hands each to `emit` as soon as it and the ones before it
 * are ready, as the parts that lay it out (the pause its break calls for, then its samples): a
 * listener hears the first paragraph while the rest is voiced (render-stream.ts). Stored passages
 * are read ahead; passages are voiced up to the provider's concurrency ahead of the one emitted.
 * Stored passages are used as they are, so an unchanged paragraph's audio is byte for byte what it
 * was. Adds what it synthesised and reused to `tally`.
 */
export async function voiceSegment(
  store: RenderStoreRpc,
  segment: Passage[],
  offer: VoiceOffer,
  tenant: string | null,
  synthesizer: Synthesizer,
  pronounce: Pronounce,
  tally: ParagraphTally,
  emit: Emit,
  { phases, seat, holdsJob, later }: { phases?: RenderPhases; seat?: Seat; holdsJob?: HoldsJob; later?: Later } = {},
): Promise<({ ok: true } & Omit<VoicedSegment, "parts">) | SynthFailure> {
  const lexicons = await Promise.all(segment.map((p) => pronounce(p.text)));
  const keys = await Promise.all(segment.map((p, i) => paragraphKey(offer.provider, offer.id, p.text, lexicons[i].digest, tenant)));
  for (const key of keys) tally.markIds.add(markId(key));
  const writes = atMost(WRITES_IN_FLIGHT);
  const found = await loadParagraphHeads(store, keys);
  // The stored paragraphs' encoded units, read while the missing ones are voiced: a unit's address has
  // the pause before its paragraph, which is the paragraph's own break's unless a silent paragraph
  // before it passes a stronger one on.
  const expected = (i: number) => unitObjectPath(keys[i], joinGap(segment[i].brk, MASTER_SAMPLE_RATE));
  const wanted = keys.flatMap((_, i) => (found[i] ? [i] : []));
  const units = loadUnits(store, wanted.map(expected)).then((read) => new Map(wanted.map((i, n) => [i, read[n]])));
  units.catch(() => {}); // a failed read fails the render where it is awaited
  // Pieces of every passage being voiced share the provider's own bound.
  const requests = atMost(PROVIDERS[offer.provider].concurrency);
  const limited: Synthesizer = { synthesize: (...args) => requests(() => synthesizer.synthesize(...args)) };
  const voicing = new Map<number, ReturnType<typeof synthesizePassages>>();
  const first = (i: number) => keys.indexOf(keys[i]);
  // The offline engine runs on this isolate's thread: its passages are voiced in turns (turns.ts).
  // A cloud provider's wait is not CPU, so its passages are voiced ahead outside them.
  const onThread = offer.provider === "offline";
  // Its synthesis time is the turn's for the offline engine, whose work runs when the turn starts,
  // maybe while an earlier passage is encoded; a cloud voice's is the render's wait for its answer.
  const begun = new Set<number>();
  const startVoicing = (i: number) => {
    if (begun.has(i)) return;
    begun.add(i);
    const make = () => synthesizePassages([{ text: segment[i].text, lexicon: lexicons[i].entries }], offer, limited);
    voicing.set(i, onThread ? inTurn(seat, () => timed(phases, "synthesisMs", make)) : make());
  };
  // Missing passages start to be voiced at once, in their order, while the stored ones before them are
  // laid and their units read (an edit voices its changed paragraph without waiting for them): a
  // listener waits for the first paragraph, not for a later one.
  for (let j = 0; j < segment.length && voicing.size < PROVIDERS[offer.provider].concurrency; j++) {
    if (found[j] === null && first(j) === j) startVoicing(j);
  }
  const layout = new Layout();
  const written: Promise<void>[] = [];
  for (let i = 0; i < segment.length; i++) {
    const loaded = found[i];
    let voiced: Laid | null = loaded;
    if (voiced === null && first(i) < i) voiced = layout.voicedAt(first(i)); // a repeated paragraph (a refrain) is voiced once
    if (voiced === null) {
      if (holdsJob && !(await holdsJob())) {
        await Promise.allSettled(written);
        throw new Error("a listener's stream took the job over");
      }
      // This passage and the next missing ones, up to the provider's concurrency.
      for (let j = i, n = 0; j < segment.length && n < PROVIDERS[offer.provider].concurrency; j++) {
        if (j === i || (found[j] === null && first(j) === j)) {
          startVoicing(j);
          n++;
        }
      }
      const made = await (onThread ? voicing.get(i)! : timed(phases, "synthesisMs", () => voicing.get(i)!));
      voicing.delete(i);
      if (!made.ok) {
        await Promise.allSettled(written);
        return made;
      }
      await timed(phases, "markingMs", () => markPassages(made.passages, [keys[i]]));
      voiced = made.passages[0];
      tally.charactersSynthesized += segment[i].text.length;
      const mine = voiced;
      written.push(writes(() => storeParagraph(store, keys[i], mine)));
    } else {
      tally.paragraphsReused += 1;
    }
    const { parts, gap } = layout.add(segment[i], voiced, keys.indexOf(keys[i], i + 1) > i);
    const path = unitObjectPath(keys[i], gap);
    // Encodings are reused only with the stored samples they were made from.
    const unit: StoredUnit = { path, found: loaded && path === expected(i) ? ((await units).get(i) ?? null) : null };
    if (await inTurn(seat, () => emit(parts, unit))) tally.paragraphsEncoded += 1;
  }
  // The paragraphs voiced here are a cache for later renders: with `later`, the render does not wait
  // for them to be stored, and one not stored is voiced again when next needed.
  const storing = Promise.all(written);
  if (later) later(storing.catch((err: unknown) => console.warn(`render: a voiced paragraph was not stored: ${loggableError(err)}`)));
  else await storing;
  return { ok: true, ...layout.result() };
}

/**
 * Runs at most `limit` of the tasks given to it at a time, in the order they were given: voiced
 * paragraphs are stored without more than a Worker's six connections open, and a provider is asked
 * for no more pieces at once than it takes.
 */
function atMost(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * Lays voiced passages end to end, one at a time: each carries its own lead-in and tail, and the
 * silence between two makes up the pause of the later one's break (engine/join.ts joinGap). Each
 * passage with the pause before it is a unit, padded with silence after it to a whole number of
 * encoder frames (engine/units.ts): a passage's pause is at most 120 ms longer than its break's. A silent
 * passage takes no room, and its break passes to the next passage when stronger, as in a join of
 * pieces.
 */
class Layout {
  private readonly starts: (number | null)[] = [];
  private readonly words: VoicedWord[] = [];
  private readonly kept = new Map<number, Laid>();
  private offset = 0;
  private pending: Break | null = null;

  /**
   * The parts that lay out `voiced` after the passages before it, and the pause before it in
   * samples; `keep` it for a repeat of it later.
   */
  add<P extends Laid>(passage: Passage, voiced: P, keep = false): { parts: (P["samples"] | Int16Array)[]; gap: number } {
    const i = this.starts.length;
    if (keep) this.kept.set(i, voiced);
    const brk = stronger(this.pending, passage.brk);
    if (voiced.start === null) {
      this.starts.push(null);
      this.pending = brk;
      return { parts: [], gap: 0 };
    }
    this.pending = null;
    const gap = joinGap(brk, MASTER_SAMPLE_RATE);
    this.offset += gap;
    this.starts.push(this.offset + voiced.start);
    for (const w of voiced.words) this.words.push({ passage: i, text: w.text, start: this.offset + w.start, end: this.offset + w.end });
    this.offset += voiced.samples.length;
    const pad = unitPadding(gap + voiced.samples.length, MASTER_SAMPLE_RATE);
    this.offset += pad;
    return { parts: [...(gap > 0 ? [new Int16Array(gap)] : []), voiced.samples, ...(pad > 0 ? [new Int16Array(pad)] : [])], gap };
  }

  /** A passage laid out earlier and kept for its repeats. */
  voicedAt(i: number): Laid {
    return this.kept.get(i)!;
  }

  result(): Omit<VoicedSegment, "parts"> {
    return { samples: this.offset, starts: this.starts, words: this.words };
  }
}

/** Lays voiced passages end to end (Layout), as the parts of one master. */
export function layOut(passages: Passage[], voiced: VoicedPassage[]): VoicedSegment {
  const layout = new Layout();
  const parts = passages.flatMap((passage, i) => layout.add(passage, voiced[i]).parts);
  return { parts, ...layout.result() };
}
