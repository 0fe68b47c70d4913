// Joins separately synthesised pieces into one seamless track. Each piece is trimmed to its audible
// span, faded in and out over a few milliseconds with a raised cosine (so no cut lands on a non-zero
// sample: no clicks), and the pieces are separated by fixed pauses (no gaps that vary): a sentence
// break between pieces of one paragraph, a longer paragraph break where a paragraph begins. The join
// reports where each piece starts, in samples, which is where the paragraph timings come from.
// Pieces and the joined master are 16-bit, so the join peaks at 4 bytes a sample (pieces + master).
import type { Pcm, Pcm16 } from "./pcm";
import { resampleToInt16 } from "./resample";

/**
 * What precedes a piece: "start" (nothing: the start of the audio), a sentence break within a
 * paragraph, or a paragraph break. A listener hears the structure in the pause lengths.
 */
export type Break = "start" | "sentence" | "paragraph";

/**
 * Silence before a piece, by its break. docs/narration.md "Paragraph timings": no pause is over 700 ms; a
 * sentence break is about 0.3 s, a paragraph break about 0.6 s, and the start keeps a short lead-in.
 * The silence after the last piece equals the lead-in, so that joins laid end to end meet with the
 * same pauses as pieces do (joinGap).
 */
export const PAUSE_MS: Record<Break, number> = { start: 100, sentence: 300, paragraph: 600 };
/** Silence kept after the last piece (and before the first: PAUSE_MS.start). */
const EDGE_MS = PAUSE_MS.start;

/**
 * Silence laid between two joins laid end to end (each with its own lead-in and tail of EDGE_MS),
 * so that they meet with the pause `brk` calls for, as two pieces of one join do; none before the
 * first. Stored paragraphs are joined this way (pipeline/segment.ts).
 */
export function joinGap(brk: Break, sampleRate: number): number {
  return brk === "start" ? 0 : Math.round(((PAUSE_MS[brk] - 2 * EDGE_MS) / 1000) * sampleRate);
}
/** Level under which a sample counts as silence. */
const SILENCE_DBFS = -50;
/** Audio kept outside the detected span, so soft onsets and releases (s, f, h) survive. */
const GUARD_MS = 15;
/** Fade length at each cut. */
const FADE_MS = 5;
/**
 * Pieces are held 6 dB below their own level until normalisation sets the final one, so a
 * resampler's overshoot on a full-scale piece is kept rather than clipped by 16 bits; the bit lost
 * leaves the noise floor near -90 dBFS.
 */
const PIECE_HEADROOM = 0.5;
/** The level (16-bit) under which a sample of a piece (from pieceToInt16) counts as silence. */
export const PIECE_SILENCE = 10 ** (SILENCE_DBFS / 20) * PIECE_HEADROOM * 32768;

/** A piece brought to `rate` (the master's) as 16 bits with headroom: the provider's floats can go at once. */
export function pieceToInt16(pcm: Pcm, rate: number): Pcm16 {
  return resampleToInt16(pcm, rate, PIECE_HEADROOM);
}

/** [start, end) of the audible part of `x` widened by `guard`; [0, 0) for silence. */
function audibleSpan(x: Int16Array, threshold: number, guard: number): [number, number] {
  let start = 0;
  let end = x.length;
  while (start < end && Math.abs(x[start]) < threshold) start++;
  while (end > start && Math.abs(x[end - 1]) < threshold) end--;
  if (start === end) return [0, 0];
  return [Math.max(0, start - guard), Math.min(x.length, end + guard)];
}

/** A joined track and where each piece starts in it. */
export interface Joined extends Pcm16 {
  /**
   * Sample offset of each input piece's first kept sample (its audible span, with the guard). A
   * silent piece, which is dropped, starts where the next kept piece does; null when no kept piece
   * follows it in this join.
   */
  starts: (number | null)[];
  /** The part of each input piece that was kept, [start, end) in the piece's samples; [0, 0) for a dropped piece. */
  spans: [number, number][];
}

/**
 * Joins pieces of one sample rate (from pieceToInt16); silent pieces are dropped. `breaks[i]` is what
 * precedes piece i (default: "start" for the first, "sentence" for the rest); a dropped piece's break
 * passes to the next kept piece when stronger, so a paragraph that opens with silence still gets its
 * paragraph pause. Consumes `pieces`: each leaves the array as soon as it is copied, so the master
 * grows while the pieces shrink.
 */
export function joinPieces(pieces: Pcm16[], breaks: Break[] = pieces.map((_, i) => (i === 0 ? "start" : "sentence"))): Joined {
  if (pieces.length === 0) throw new Error("joinPieces: no pieces");
  if (breaks.length !== pieces.length) throw new Error("joinPieces: one break per piece");
  const rate = pieces[0].sampleRate;
  if (pieces.some((p) => p.sampleRate !== rate)) throw new Error("joinPieces: pieces differ in sample rate");
  const samples = (ms: number) => Math.round((ms / 1000) * rate);
  const threshold = PIECE_SILENCE;
  const guard = samples(GUARD_MS);
  const fade = samples(FADE_MS);
  const edge = samples(EDGE_MS);

  // Spans and pauses first, so the master is allocated once at its final size.
  const spans = pieces.map((p) => audibleSpan(p.samples, threshold, guard));
  const pauses: number[] = [];
  let pending: Break | null = null;
  spans.forEach(([start, end], i) => {
    pending = stronger(pending, breaks[i]);
    if (end > start) {
      pauses.push(samples(PAUSE_MS[pending]));
      pending = null;
    }
  });
  const kept = spans.filter(([start, end]) => end > start);
  const total = edge + kept.reduce((n, [start, end]) => n + end - start, 0) + pauses.reduce((n, p) => n + p, 0);
  const out = new Int16Array(kept.length ? total : 2 * edge);
  const starts: (number | null)[] = [];
  let offset = 0;
  let k = 0;
  for (const [start, end] of spans) {
    const piece = pieces.shift()!; // the last reference the join holds: the piece is garbage once copied
    starts.push(null);
    if (end === start) continue;
    offset += pauses[k++];
    // This piece's start is also that of the silent pieces just before it.
    for (let j = starts.length - 1; j >= 0 && starts[j] === null; j--) starts[j] = offset;
    const length = end - start;
    out.set(piece.samples.subarray(start, end), offset);
    const f = Math.min(fade, length >> 1);
    for (let n = 0; n < f; n++) {
      const gain = 0.5 - 0.5 * Math.cos((Math.PI * (n + 0.5)) / f); // raised cosine, 0 -> 1
      out[offset + n] = Math.round(out[offset + n] * gain);
      out[offset + length - 1 - n] = Math.round(out[offset + length - 1 - n] * gain);
    }
    offset += length;
  }
  return { samples: out, sampleRate: rate, starts, spans };
}

/** The break that sets the pause when both precede one piece: the start of the audio, then a paragraph. */
export function stronger(a: Break | null, b: Break): Break {
  const rank: Record<Break, number> = { sentence: 0, paragraph: 1, start: 2 };
  return a !== null && rank[a] > rank[b] ? a : b;
}
