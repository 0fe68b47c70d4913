import { viterbi } from "../../kernel/watermark/code";
import { Fft } from "../../kernel/watermark/fft";
import {
  BAND_START,
  BAND_WIDTH,
  BITS_PER_FRAME,
  BLOCK_FRAMES,
  FRAME,
  MARK_RATE,
  MESSAGE_LENGTH,
  PAIRS,
  payloadOf,
  type MarkLayout,
  type MarkPayload,
} from "../../kernel/watermark/scheme";

/** What the detector says of a recording (../shared contract "Marking"). */
export interface MarkReading {
  marked: boolean;
  /** 1 minus the chance that unmarked audio scores as high over as many tries; 0..1. */
  confidence: number;
  payload: MarkPayload | null;
}

/**
 * Sync score a stretch needs before its payload counts: with the CRC-16 that must match too, the
 * chance that an unmarked ten seconds passes is below 1e-6 even over the speed search's tries.
 */
const SYNC_THRESHOLD = 4.5;
/** False positives per recording a clip across a paragraph boundary may have: the 1 in 10,000. */
export const PRESENCE_FALSE_POSITIVES = 1e-4;
/** Sync score from which a stretch's payload is decoded at all. */
const DECODE_FROM = 3;
/** Candidates decoded per scan, best sync first. */
const MAX_DECODES = 48;
/** Alignments tried within a frame: a mark read an eighth of a frame off still holds. */
const OFFSETS = 8;
/** Frames quieter than this share of the loud ones carry no mark worth reading. */
const QUIET = 1e-4;
/** Pairs of bands quieter than this share of the frame's loudest band are left out of its scores. */
const QUIET_BAND = 1e-3;
/** Speed changes searched (both as resampling, which moves pitch, and as tempo, which keeps it). */
const SPEEDS = Array.from({ length: 61 }, (_, i) => Math.round((0.85 + i * 0.005) * 1000) / 1000).filter((s) => s !== 1);
/** Seconds of audio the speed search reads: the loudest stretch of that length within one paragraph. */
const SPEED_SEARCH_SECONDS = 12;
/** Silence that parts two paragraphs: 0.4 s of it between them (render/engine/join.ts PAUSE_MS), 0.3 s between sentences. */
const LONG_PAUSE_SECONDS = 0.4;
/** How long before a paragraph's first loud tenth of a second its first block may start (render/engine/join.ts PAUSE_MS.start). */
const PARAGRAPH_LEAD_SECONDS = 0.1;

const fft = new Fft(FRAME);
const HANN = Float64Array.from({ length: FRAME }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME));

/**
 * Looks for the mark keyed by `layout` in mono audio at MARK_RATE (any scale): first as it is, then
 * across paragraph boundaries (acrossPauses), then, when it is not found and `speeds` is not false,
 * over a grid of speed changes from 0.85x to 1.15x on the loudest SPEED_SEARCH_SECONDS. Returns the
 * strongest reading.
 */
export function detectMark(samples: Float32Array, layout: MarkLayout, { speeds = true } = {}): MarkReading {
  const direct = scan(samples, layout, FRAME, 1);
  if (direct.marked) return direct;
  const joined = acrossPauses(samples, layout);
  if (joined.marked || !speeds) return joined.marked || joined.confidence > direct.confidence ? joined : direct;
  const excerpt = loudest(samples, SPEED_SEARCH_SECONDS * MARK_RATE);
  let best = direct;
  for (const speed of SPEEDS) {
    for (const reading of [scan(stretch(excerpt, speed), layout, FRAME, SPEEDS.length * 2), scan(excerpt, layout, FRAME / speed, SPEEDS.length * 2)]) {
      if (reading.marked) return reading;
      if (reading.confidence > best.confidence) best = reading;
    }
  }
  return best;
}

interface Scores {
  /** Per frame and bit of the frame: the pairs' log-magnitude differences, oriented, averaged. */
  slots: Float64Array;
  active: Uint8Array;
  frames: number;
}

/** Scores of frames `hop` samples apart from `offset`. */
function frameScores(samples: Float32Array, layout: MarkLayout, offset: number, hop: number): Scores {
  const frames = Math.max(0, Math.floor((samples.length - offset - FRAME) / hop) + 1);
  const slots = new Float64Array(frames * BITS_PER_FRAME);
  const energies = new Float64Array(frames);
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  const bands = new Float64Array(2 * PAIRS);
  const perSlot = new Float64Array(BITS_PER_FRAME);
  for (const pair of layout.slot) perSlot[pair]++;
  for (let f = 0; f < frames; f++) {
    const start = Math.round(offset + f * hop);
    for (let i = 0; i < FRAME; i++) {
      re[i] = (samples[start + i] ?? 0) * HANN[i];
      im[i] = 0;
    }
    fft.forward(re, im);
    let energy = 0;
    let loudest = 0;
    for (let band = 0; band < 2 * PAIRS; band++) {
      bands[band] = bandPower(re, im, BAND_START(band));
      energy += bands[band];
      loudest = Math.max(loudest, bands[band]);
    }
    for (let pair = 0; pair < PAIRS; pair++) {
      const low = bands[2 * pair];
      const high = bands[2 * pair + 1];
      // Bands far below the frame's loudest are what a low-rate codec quantises away: noise, not mark.
      if (low + high < loudest * QUIET_BAND) continue;
      const diff = 0.5 * Math.log((low + 1e-12) / (high + 1e-12));
      slots[f * BITS_PER_FRAME + layout.slot[pair]] += (layout.orientation[pair] * diff) / perSlot[layout.slot[pair]];
    }
    energies[f] = energy;
  }
  const sorted = Float64Array.from(energies).sort();
  const loud = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
  const active = Uint8Array.from(energies, (e) => (e > 0 && e > loud * QUIET ? 1 : 0));
  return { slots, active, frames };
}

function bandPower(re: Float64Array, im: Float64Array, from: number): number {
  let p = 0;
  for (let k = from; k < from + BAND_WIDTH; k++) p += re[k] * re[k] + im[k] * im[k];
  return p;
}

export interface Candidate {
  z: number;
  /** The score's standard deviation over noise: z times it is the raw correlation, which adds up across stretches. */
  weight: number;
  /** The block phase it was read at: blocks start at the frames whose index modulo BLOCK_FRAMES it is. */
  phase: number;
  /** Per block position: the summed score, centred. */
  sums: Float64Array;
  /** Per block position: the frames summed. */
  counts: Float64Array;
  variance: number;
}

/**
 * Reads windows of 2, 4 and 8 blocks every half block, at every alignment within a frame and every
 * block phase; `tries` multiplies the tests this scan's confidence accounts for.
 */
function scan(samples: Float32Array, layout: MarkLayout, hop: number, tries: number): MarkReading {
  const candidates: Candidate[] = [];
  let tests = 0;
  for (let o = 0; o < OFFSETS; o++) {
    const scores = frameScores(samples, layout, (o * hop) / OFFSETS, hop);
    for (const size of [2, 4, 8].map((b) => b * BLOCK_FRAMES)) {
      const width = Math.min(size, scores.frames);
      if (width < BLOCK_FRAMES) continue;
      for (let from = 0; from + width <= scores.frames; from += BLOCK_FRAMES / 2) {
        tests += BLOCK_FRAMES;
        windowCandidates(scores, layout, Math.floor(from), width, candidates);
        if (width < size) break;
      }
    }
  }
  candidates.sort((a, b) => b.z - a.z);
  const trials = Math.max(1, tests * tries);
  let best: MarkReading = { marked: false, confidence: candidates[0] ? confidenceOf(candidates[0].z, trials) : 0, payload: null };
  for (const candidate of candidates.slice(0, MAX_DECODES)) {
    const payload = decode(candidate, layout);
    if (!payload) continue;
    if (candidate.z >= SYNC_THRESHOLD) return { marked: true, confidence: confidenceOf(candidate.z, trials / 65_536), payload };
    // A payload whose CRC holds under a weak sync: likelier than noise, not enough to say marked.
    const confidence = confidenceOf(candidate.z, trials / 65_536);
    if (confidence > best.confidence) best = { marked: false, confidence, payload: null };
  }
  return best;
}

/** The payload a candidate's data positions decode to (Viterbi), or null when its CRC does not hold. */
function decode(candidate: Candidate, layout: MarkLayout): MarkPayload | null {
  const soft = Float64Array.from(
    layout.dataPositions,
    (pos) => (candidate.sums[pos] * layout.scramble[pos]) / Math.sqrt(candidate.counts[pos] * candidate.variance || 1),
  );
  return payloadOf(viterbi(soft, MESSAGE_LENGTH));
}

/**
 * A clip across paragraph boundaries: each paragraph's blocks start at its own first sample and carry
 * its own id, so the stretches between long pauses are scored each on its own, on the positions every
 * mark shares (MarkLayout.knownPositions), and two neighbours' scores add up. The first is read at
 * every alignment and phase; the second's blocks start where its paragraph does, its lead-in silence
 * (PAUSE_MS.start, render/engine/join.ts) before its first loud tenth of a second, so only those are
 * tried. Each score is divided by the spread of the phases that cannot hold its block, since another
 * key's mark or the speech's own rhythm folds into the block sums and widens every phase alike. Marked
 * when the pair's score is as unlikely from unmarked audio, over every combination tried, as
 * PRESENCE_FALSE_POSITIVES per recording; the payload is the one either side decodes, or none.
 */
function acrossPauses(samples: Float32Array, layout: MarkLayout): MarkReading {
  const sides = sidesOf(samples, layout);
  const trials = Math.max(
    1,
    sides.slice(1).reduce((n, side, i) => n + sides[i].all * side.tried, 0),
  );
  let best: { chance: number; a: Candidate; b: Candidate } | null = null;
  for (let i = 0; i + 1 < sides.length; i++) {
    const pair = acrossPause(sides[i], sides[i + 1], trials);
    if (pair && (!best || pair.chance < best.chance)) best = pair;
  }
  if (!best) return { marked: false, confidence: 0, payload: null };
  const marked = best.chance < PRESENCE_FALSE_POSITIVES;
  return { marked, confidence: rounded(1 - best.chance), payload: marked ? (decode(best.a, layout) ?? decode(best.b, layout)) : null };
}

/** A stretch between long pauses, scored on its own (acrossPauses). */
export interface Side {
  /** Its best score at any alignment and phase: the first of two paragraphs. */
  any: Candidate | undefined;
  /** Its best score with a block starting at its onset: the second of two paragraphs. */
  atOnset: Candidate | undefined;
  /** Alignments and phases tried for `any`, and for `atOnset`. */
  all: number;
  tried: number;
}

/** The stretches of `samples` between pauses of LONG_PAUSE_SECONDS or more, each scored on its own. */
export function sidesOf(samples: Float32Array, layout: MarkLayout): Side[] {
  return stretches(samples).map((range) => {
    const part = samples.subarray(...range);
    const found: { candidate: Candidate; start: number }[] = [];
    for (let o = 0; o < OFFSETS; o++) {
      const scores = frameScores(part, layout, (o * FRAME) / OFFSETS, FRAME);
      const read: Candidate[] = [];
      if (scores.frames >= BLOCK_FRAMES) windowCandidates(scores, layout, 0, scores.frames, read, Number.NEGATIVE_INFINITY);
      for (const candidate of read) found.push({ candidate, start: (o * FRAME) / OFFSETS + candidate.phase * FRAME });
    }
    const block = BLOCK_FRAMES * FRAME;
    const lead = PARAGRAPH_LEAD_SECONDS * MARK_RATE;
    const all = found.map((f) => f.candidate);
    const atOnset = found.filter(({ start }) => (start + lead) % block <= lead).map((f) => f.candidate);
    return { any: normalised(all), atOnset: normalised(atOnset, all), all: all.length, tried: atOnset.length };
  });
}

/**
 * `a` then `b` across a pause: the chance that unmarked audio scores as high over `trials` tries
 * (every combination of alignment and phase the recording's pairs were read at), or null when
 * either side is too short to hold a block.
 */
export function acrossPause(a: Side, b: Side, trials: number): { chance: number; a: Candidate; b: Candidate } | null {
  if (!a.any || !b.atOnset) return null;
  const [x, y] = [a.any, b.atOnset];
  const z = (x.z * x.weight + y.z * y.weight) / Math.sqrt(x.weight ** 2 + y.weight ** 2);
  return { chance: chanceOf(z, trials), a: x, b: y };
}

/** The best of `candidates`, its score divided by the spread of `all`'s scores at phases at least two frames from it. */
function normalised(candidates: Candidate[], all = candidates): Candidate | undefined {
  const top = candidates.reduce<Candidate | undefined>((best, c) => (best && best.z >= c.z ? best : c), undefined);
  if (!top) return undefined;
  const apart = all.filter((c) => Math.min((c.phase - top.phase + BLOCK_FRAMES) % BLOCK_FRAMES, (top.phase - c.phase + BLOCK_FRAMES) % BLOCK_FRAMES) > 1);
  const spread = Math.sqrt(apart.reduce((sum, c) => sum + c.z * c.z, 0) / Math.max(1, apart.length));
  return { ...top, z: top.z / Math.max(1, spread) };
}

/** Samples per bin of the pause finder: a tenth of a second. */
const BIN = MARK_RATE / 10;

/** Energy per BIN samples, and the loud level pauses are measured against. */
function binEnergies(samples: Float32Array): { energy: number[]; loud: number } {
  const energy: number[] = [];
  for (let s = 0; s < samples.length; s += BIN) {
    let e = 0;
    for (let i = s; i < Math.min(samples.length, s + BIN); i++) e += samples[i] * samples[i];
    energy.push(e);
  }
  return { energy, loud: [...energy].sort((a, b) => a - b)[Math.floor(energy.length * 0.9)] ?? 0 };
}

/** [start, end) of the stretches between pauses of LONG_PAUSE_SECONDS or more. */
function stretches(samples: Float32Array): [number, number][] {
  const { energy, loud } = binEnergies(samples);
  const pauseBins = Math.round((LONG_PAUSE_SECONDS * MARK_RATE) / BIN);
  const out: [number, number][] = [];
  let start = 0;
  let quiet = 0;
  energy.forEach((e, k) => {
    quiet = e < loud * QUIET ? quiet + 1 : 0;
    if (quiet === pauseBins) {
      const end = (k - pauseBins + 1) * BIN;
      if (end > start) out.push([start, end]);
    }
    if (quiet >= pauseBins) start = (k + 1) * BIN;
  });
  if (start < samples.length) out.push([start, samples.length]);
  return out;
}

/** Adds the window's block phases whose sync score (over the known positions) reaches `least`. */
function windowCandidates(scores: Scores, layout: MarkLayout, from: number, width: number, out: Candidate[], least = DECODE_FROM): void {
  const L = BLOCK_FRAMES;
  const K = BITS_PER_FRAME;
  // Per frame class (frame mod L) and bit: summed scores and active frames.
  const sums = new Float64Array(L * K);
  const counts = new Float64Array(L);
  const slotSum = new Float64Array(K);
  let squares = 0;
  let active = 0;
  for (let f = from; f < from + width; f++) {
    if (!scores.active[f]) continue;
    const c = f % L;
    counts[c]++;
    active++;
    for (let j = 0; j < K; j++) {
      const s = scores.slots[f * K + j];
      sums[c * K + j] += s;
      slotSum[j] += s;
      squares += s * s;
    }
  }
  if (active < L) return;
  // Centred per bit, so a steady tilt of the spectrum reads as no bit at all.
  let centred = squares;
  for (let j = 0; j < K; j++) {
    const mean = slotSum[j] / active;
    centred -= mean * slotSum[j];
    for (let c = 0; c < L; c++) sums[c * K + j] -= counts[c] * mean;
  }
  const variance = centred / (active * K);
  if (!(variance > 0)) return;
  for (let phase = 0; phase < L; phase++) {
    let dot = 0;
    let n = 0;
    layout.knownPositions.forEach((pos, i) => {
      const c = (Math.floor(pos / K) + phase) % L;
      dot += sums[c * K + (pos % K)] * layout.knownSigns[i];
      n += counts[c];
    });
    const weight = Math.sqrt(n * variance);
    const z = dot / weight;
    if (z < least) continue;
    const blockSums = new Float64Array(L * K);
    const blockCounts = new Float64Array(L * K);
    for (let pos = 0; pos < L * K; pos++) {
      const c = (Math.floor(pos / K) + phase) % L;
      blockSums[pos] = sums[c * K + (pos % K)];
      blockCounts[pos] = counts[c];
    }
    out.push({ z, weight, phase, sums: blockSums, counts: blockCounts, variance });
  }
}

/** 1 minus the chance that at least one of `trials` unmarked tries scores `z` or more (normal tail). */
function confidenceOf(z: number, trials: number): number {
  return rounded(1 - chanceOf(z, trials));
}

/** The chance that noise scores `z` or more in one of `trials` tries (a union bound). */
function chanceOf(z: number, trials: number): number {
  return Math.min(1, trials * 0.5 * erfc(z / Math.SQRT2));
}

/** A confidence as reported: four decimals. */
function rounded(confidence: number): number {
  return Math.round(confidence * 10_000) / 10_000;
}

/** erfc by Numerical Recipes' Chebyshev fit (relative error under 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Audio played `speed` times faster made slow again (or the reverse) by linear interpolation: pitch and time scale together. */
function stretch(samples: Float32Array, speed: number): Float32Array {
  const out = new Float32Array(Math.floor(samples.length * speed));
  for (let i = 0; i < out.length; i++) {
    const at = i / speed;
    const k = Math.floor(at);
    const frac = at - k;
    out[i] = (samples[k] ?? 0) * (1 - frac) + (samples[k + 1] ?? 0) * frac;
  }
  return out;
}

/**
 * The loudest `length` samples of `samples` (all of them when shorter) that hold no pause of
 * LONG_PAUSE_SECONDS, by energy per tenth of a second: a paragraph's mark starts anew after the pause
 * before it, so a stretch within one paragraph reads one payload whole. The loudest stretch of any
 * kind when every stretch holds a pause.
 */
function loudest(samples: Float32Array, length: number): Float32Array {
  if (samples.length <= length) return samples;
  const { energy, loud } = binEnergies(samples);
  // Per bin: how many quiet bins in a row end there.
  const quietRun: number[] = [];
  for (const e of energy) quietRun.push(e < loud * QUIET ? (quietRun.at(-1) ?? 0) + 1 : 0);
  const pauseBins = Math.round((LONG_PAUSE_SECONDS * MARK_RATE) / BIN);
  const span = Math.floor(length / BIN);
  let best = { at: 0, sum: -1, paused: true };
  let sum = energy.slice(0, span).reduce((a, b) => a + b, 0);
  for (let s = 0; s + span <= energy.length; s++) {
    if (s > 0) sum += energy[s + span - 1] - energy[s - 1];
    // A pause inside: a quiet run reaching pauseBins whose bins all lie in the stretch.
    let paused = false;
    for (let i = s + pauseBins - 1; i < s + span && !paused; i++) paused = quietRun[i] >= pauseBins && i - pauseBins + 1 >= s;
    if ((best.paused && !paused) || (paused === best.paused && sum > best.sum)) best = { at: s, sum, paused };
  }
  return samples.subarray(best.at * BIN, best.at * BIN + length);
}
