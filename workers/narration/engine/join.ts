// Joins separately synthesised pieces into one seamless track. Each piece is trimmed to its audible
// span, faded in and out over a few milliseconds with a raised cosine (so no cut lands on a non-zero
// sample: no clicks), and the pieces are separated by one consistent pause (no gaps that vary).
import type { Pcm } from "./pcm";

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

/** [start, end) of the audible part of `x` widened by `guard`; [0, 0) for silence. */
function audibleSpan(x: Float32Array, threshold: number, guard: number): [number, number] {
  let start = 0;
  let end = x.length;
  while (start < end && Math.abs(x[start]) < threshold) start++;
  while (end > start && Math.abs(x[end - 1]) < threshold) end--;
  if (start === end) return [0, 0];
  return [Math.max(0, start - guard), Math.min(x.length, end + guard)];
}

/** Joins pieces of one sample rate; silent pieces are dropped. */
export function joinPieces(pieces: Pcm[]): Pcm {
  if (pieces.length === 0) throw new Error("joinPieces: no pieces");
  const rate = pieces[0].sampleRate;
  if (pieces.some((p) => p.sampleRate !== rate)) throw new Error("joinPieces: pieces differ in sample rate");
  const samples = (ms: number) => Math.round((ms / 1000) * rate);
  const threshold = 10 ** (SILENCE_DBFS / 20);
  const guard = samples(GUARD_MS);
  const fade = samples(FADE_MS);
  const edge = samples(EDGE_MS);
  const pause = samples(PAUSE_MS);

  const kept = pieces
    .map((p) => {
      const [start, end] = audibleSpan(p.samples, threshold, guard);
      return p.samples.subarray(start, end);
    })
    .filter((s) => s.length > 0);
  const total = 2 * edge + kept.reduce((n, s) => n + s.length, 0) + pause * Math.max(0, kept.length - 1);
  const out = new Float32Array(total);
  let offset = edge;
  kept.forEach((span, i) => {
    if (i > 0) offset += pause;
    out.set(span, offset);
    const f = Math.min(fade, span.length >> 1);
    for (let k = 0; k < f; k++) {
      const gain = 0.5 - 0.5 * Math.cos((Math.PI * (k + 0.5)) / f); // raised cosine, 0 -> 1
      out[offset + k] *= gain;
      out[offset + span.length - 1 - k] *= gain;
    }
    offset += span.length;
  });
  return { samples: out, sampleRate: rate };
}
