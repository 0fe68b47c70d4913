// Joins separately synthesised pieces into one seamless track. Each piece is trimmed to its audible
// span, faded in and out over a few milliseconds with a raised cosine (so no cut lands on a non-zero
// sample: no clicks), and the pieces are separated by one consistent pause (no gaps that vary).
// Pieces and the joined master are 16-bit, so the join peaks at 4 bytes a sample (pieces + master).
import { floatToInt16, type Pcm, type Pcm16 } from "./pcm";

/** Silence between pieces: about a sentence break. */
const PAUSE_MS = 300;
/** Silence kept before the first and after the last piece. */
const EDGE_MS = 100;
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

/** A piece at the master rate as 16 bits with headroom: the Float32 copy can go at once. */
export function pieceToInt16(pcm: Pcm): Pcm16 {
  const samples = new Int16Array(pcm.samples.length);
  for (let i = 0; i < samples.length; i++) samples[i] = floatToInt16(pcm.samples[i] * PIECE_HEADROOM);
  return { samples, sampleRate: pcm.sampleRate };
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

/**
 * Joins pieces of one sample rate (from pieceToInt16); silent pieces are dropped. Consumes `pieces`:
 * each leaves the array as soon as it is copied, so the master grows while the pieces shrink.
 */
export function joinPieces(pieces: Pcm16[]): Pcm16 {
  if (pieces.length === 0) throw new Error("joinPieces: no pieces");
  const rate = pieces[0].sampleRate;
  if (pieces.some((p) => p.sampleRate !== rate)) throw new Error("joinPieces: pieces differ in sample rate");
  const samples = (ms: number) => Math.round((ms / 1000) * rate);
  const threshold = 10 ** (SILENCE_DBFS / 20) * PIECE_HEADROOM * 32768;
  const guard = samples(GUARD_MS);
  const fade = samples(FADE_MS);
  const edge = samples(EDGE_MS);
  const pause = samples(PAUSE_MS);

  // Spans first, so the master is allocated once at its final size.
  const spans = pieces.map((p) => audibleSpan(p.samples, threshold, guard));
  const kept = spans.filter(([start, end]) => end > start);
  const total = 2 * edge + kept.reduce((n, [start, end]) => n + end - start, 0) + pause * Math.max(0, kept.length - 1);
  const out = new Int16Array(total);
  let offset = edge;
  let first = true;
  for (const [start, end] of spans) {
    const piece = pieces.shift()!; // the last reference the join holds: the piece is garbage once copied
    if (end === start) continue;
    if (!first) offset += pause;
    first = false;
    const length = end - start;
    out.set(piece.samples.subarray(start, end), offset);
    const f = Math.min(fade, length >> 1);
    for (let k = 0; k < f; k++) {
      const gain = 0.5 - 0.5 * Math.cos((Math.PI * (k + 0.5)) / f); // raised cosine, 0 -> 1
      out[offset + k] = Math.round(out[offset + k] * gain);
      out[offset + length - 1 - k] = Math.round(out[offset + length - 1 - k] * gain);
    }
    offset += length;
  }
  return { samples: out, sampleRate: rate };
}
