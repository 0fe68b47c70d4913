// Loudness measurement and normalisation per ITU-R BS.1770-4 and EBU R 128, for mono speech.
// The podcast norm is -16 LUFS integrated with true peak at most -1 dBTP. Speech at -16 LUFS usually
// peaks above -1 dBTP, and plain gain would then miss the loudness target, so normalisation applies
// the gain and then a look-ahead limiter on the oversampled peak, re-aiming until both hold.
// Everything works on the 16-bit master in place, reading each sample as a float when it is used,
// so no float copy of a long article is ever made.
import { floatToInt16 } from "./pcm";
import { bessel0 } from "./resample";

const TARGET_LUFS = -16;
const TRUE_PEAK_CEILING_DBTP = -1;
/**
 * The master is limited this far below the ceiling because lossy codecs overshoot: Opus (CELT) at
 * 32 kbit/s decodes up to about 2 dB above the master's true peak (ffmpeg ebur128), and LAME at
 * 64 kbit/s up to about 2.4 dB at a voiced onset after a pause, of which 0.45 dB is the 1/0.95 its
 * input is raised by (mp3.ts). Whether LAME overshoots there depends on the encoder's state (moving
 * the audio by one sample turned -2.2 into -0.6 dBTP), so a long render meets it by chance, and
 * nothing guards the MP3 as opus-frames.ts guards the Opus: the headroom must cover it. With a
 * -4 dBTP master the same renders decode at -2.5 dBTP at worst, and few Opus frames need their
 * guard, whose dips would otherwise be frequent enough on loud vowels to hear.
 */
const CODEC_HEADROOM_DB = 3;
/**
 * Trial gains through the limiter at most; the last one tried is kept. The model aims the first
 * within the tolerance on the offline engine's speech (28 paragraphs of four voices, all in one).
 */
const MAX_PASSES = 5;
/** How near the target the trial passes stop: a tenth of a loudness unit, the meter's own resolution. */
const TOLERANCE_LU = 0.1;
/** Steps of the limiter's model (LimiterModel) at most, for one aim, and how near the model they stop. */
const MODEL_STEPS = 8;
const MODEL_TOLERANCE_LU = 0.02;
/**
 * The share of an added gain the model's first re-aim expects to hear: at this target and ceiling
 * the limiter takes about half of it from speech (slopes of 0.24 to 0.43 measured on the offline
 * engine's voices).
 */
const FIRST_SLOPE = 0.5;
/**
 * The limiter aims this far under the ceiling: its gain moves across the taps of a peak's
 * interpolation, and its output is rounded to 16 bits, which left every paragraph of the offline
 * engine 0.0001 to 0.0009 dB over the ceiling (28 paragraphs of four voices), and each then took a
 * pass over all its samples to trade that back (normalizeLoudness's last check).
 */
const LIMITER_MARGIN = 10 ** (-0.01 / 20);
/** Limiter look-ahead, attack and release window. */
const LIMITER_WINDOW_MS = 5;

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

/** A 16-bit sample v stands for v / 32768 (pcm.ts). */
const INT16_SCALE = 1 / 32768;
/** Samples metered or emitted by the limiter at a time, as floats. */
const CHUNK = 4096;

const dbToLinear = (db: number) => 10 ** (db / 20);
const powerToLufs = (z: number) => -0.691 + 10 * Math.log10(z);

/** K-weighting biquads (high shelf, then the RLB high-pass) for any rate, derived as libebur128 does. */
function kWeightingCoefficients(rate: number): [number[], number[]][] {
  let f0 = 1681.974450955533;
  let q = 0.7071752369554196;
  let k = Math.tan((Math.PI * f0) / rate);
  const vh = 10 ** (3.999843853973347 / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / q + k * k;
  const shelf: [number[], number[]] = [
    [(vh + (vb * k) / q + k * k) / a0, (2 * (k * k - vh)) / a0, (vh - (vb * k) / q + k * k) / a0],
    [1, (2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0],
  ];
  f0 = 38.13547087602444;
  q = 0.5003270373238773;
  k = Math.tan((Math.PI * f0) / rate);
  a0 = 1 + k / q + k * k;
  const highpass: [number[], number[]] = [
    [1, -2, 1],
    [1, (2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0],
  ];
  return [shelf, highpass];
}

/** The meter's 100 ms hop and 400 ms block, in samples at `rate`. */
const meterSpans = (rate: number) => ({ hop: Math.round(0.1 * rate), block: Math.round(0.4 * rate) });

/**
 * Integrated loudness measured sample by sample (no copy of the signal): K-weighting, then the
 * mean square of 400 ms blocks with 75 % overlap (BS.1770-4 §2.8) kept as 100 ms hop sums, gated
 * at -70 LUFS absolute and -10 LU relative.
 */
class LoudnessMeter {
  private readonly shelf: [number[], number[]];
  /** The high-pass's denominator; its numerator is [1, -2, 1] (kWeightingCoefficients). */
  private readonly highpass: number[];
  private state = [0, 0, 0, 0, 0, 0, 0, 0];
  private readonly hop: number;
  private readonly block: number;
  private readonly hopSums: number[] = [];
  private hopSum = 0;
  private hopFill = 0;
  private total = 0;
  private count = 0;
  /** `blockEnergies`, if given, gets the energy of each BOUND_BLOCK samples pushed added to it. */
  constructor(
    rate: number,
    private readonly blockEnergies: Float32Array | null = null,
  ) {
    const [shelf, highpass] = kWeightingCoefficients(rate);
    this.shelf = shelf;
    this.highpass = highpass[1];
    ({ hop: this.hop, block: this.block } = meterSpans(rate));
  }

  /**
   * Meters `length` samples of `chunk`. The filters' state and sums are read into locals once per
   * chunk and written back after it, so the loop works in registers rather than in fields.
   */
  push(chunk: Float64Array, length: number): void {
    const [[b0, b1, b2], [, a1, a2]] = this.shelf;
    const [, d1, d2] = this.highpass;
    let [x1, x2, y1, y2, u1, u2, v1, v2] = this.state;
    let { total, hopSum, hopFill } = this;
    const { hop, blockEnergies, count } = this;
    for (let i = 0; i < length; i++) {
      const x = chunk[i];
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      // The high-pass's numerator [1, -2, 1] as adds: products by 1 and -2 are exact, so the same sum.
      const v = y - 2 * u1 + u2 - d1 * v1 - d2 * v2;
      u2 = u1;
      u1 = y;
      v2 = v1;
      v1 = v;
      const square = v * v;
      total += square;
      hopSum += square;
      if (++hopFill === hop) {
        this.hopSums.push(hopSum);
        hopSum = 0;
        hopFill = 0;
      }
      if (blockEnergies) blockEnergies[(count + i) >> BOUND_BLOCK_BITS] += square;
    }
    this.state = [x1, x2, y1, y2, u1, u2, v1, v2];
    this.total = total;
    this.hopSum = hopSum;
    this.hopFill = hopFill;
    this.count += length;
  }

  /** LUFS; -Infinity for silence. */
  integrated(): number {
    return gatedLoudness(this.hopSums, this.hop, this.block, this.count, this.total);
  }
}

/**
 * Integrated loudness from the K-weighted energy of each 100 ms hop of `count` samples, `total` in
 * all: the mean power of 400 ms blocks with 75 % overlap (BS.1770-4 §2.8), gated at -70 LUFS absolute
 * and -10 LU relative. -Infinity for silence.
 */
function gatedLoudness(hopSums: ArrayLike<number>, hop: number, block: number, count: number, total: number): number {
  let powers: number[];
  if (count < block) {
    // Shorter than one block: the whole signal as one block (BS.1770 leaves this case undefined).
    powers = count ? [total / count] : [];
  } else {
    const perBlock = block / hop;
    powers = [];
    for (let j = 0; j + perBlock <= hopSums.length; j++) {
      let s = 0;
      for (let k = 0; k < perBlock; k++) s += hopSums[j + k];
      powers.push(s / block);
    }
  }
  const gatedMean = (threshold: number) => {
    let s = 0;
    let n = 0;
    for (const p of powers) {
      if (powerToLufs(p) > threshold) {
        s += p;
        n++;
      }
    }
    return n ? s / n : 0;
  };
  const absolute = gatedMean(ABSOLUTE_GATE_LUFS);
  if (absolute === 0) return -Infinity;
  const mean = gatedMean(Math.max(ABSOLUTE_GATE_LUFS, powerToLufs(absolute) + RELATIVE_GATE_LU));
  return mean === 0 ? -Infinity : powerToLufs(mean);
}

/** `samples` pushed through `meter` as floats, a chunk at a time. */
function meterSamples(meter: LoudnessMeter, samples: Int16Array): LoudnessMeter {
  const chunk = new Float64Array(CHUNK);
  for (let start = 0; start < samples.length; start += CHUNK) {
    const length = Math.min(CHUNK, samples.length - start);
    for (let k = 0; k < length; k++) chunk[k] = samples[start + k] * INT16_SCALE;
    meter.push(chunk, length);
  }
  return meter;
}

/** Integrated loudness in LUFS (-Infinity for silence). */
export function integratedLoudness(samples: Int16Array, sampleRate: number): number {
  return meterSamples(new LoudnessMeter(sampleRate), samples).integrated();
}

// True peak by 4x oversampling (BS.1770-4 Annex 2): 4 phases of a 12-tap Kaiser-windowed sinc with
// its cut-off just below the original Nyquist. Phase 0 is the sample itself, so only phases 1-3 are built.
const TP_TAPS = 12;
const TP_PHASES = 4;
const TP_FILTER: Float64Array[] = (() => {
  const half = TP_TAPS / 2;
  const cutoff = 0.95;
  const phases: Float64Array[] = [];
  for (let p = 1; p < TP_PHASES; p++) {
    const h = new Float64Array(TP_TAPS);
    let sum = 0;
    for (let k = 0; k < TP_TAPS; k++) {
      const t = k - half + 1 - p / TP_PHASES;
      const sinc = t === 0 ? 1 : Math.sin(Math.PI * cutoff * t) / (Math.PI * cutoff * t);
      const r = t / half;
      const window = Math.abs(r) >= 1 ? 0 : bessel0(7 * Math.sqrt(1 - r * r)) / bessel0(7);
      h[k] = sinc * window;
      sum += h[k];
    }
    for (let k = 0; k < TP_TAPS; k++) h[k] /= sum; // unity gain at DC in every phase
    phases.push(h);
  }
  return phases;
})();

/** The largest magnitude among sample i and the three interpolated points after it (outside the signal counts as silence). */
function peakAt(x: Int16Array, i: number): number {
  const [h1, h2, h3] = TP_FILTER;
  const first = i - TP_TAPS / 2 + 1;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  if (first >= 0 && first + TP_TAPS <= x.length) {
    for (let k = 0; k < TP_TAPS; k++) {
      const v = x[first + k];
      s1 += h1[k] * v;
      s2 += h2[k] * v;
      s3 += h3[k] * v;
    }
  } else {
    for (let k = 0; k < TP_TAPS; k++) {
      const j = first + k;
      const v = j >= 0 && j < x.length ? x[j] : 0;
      s1 += h1[k] * v;
      s2 += h2[k] * v;
      s3 += h3[k] * v;
    }
  }
  return Math.max(Math.abs(x[i]), Math.abs(s1), Math.abs(s2), Math.abs(s3)) * INT16_SCALE;
}

// Most samples of speech are far below any ceiling, and the filters cannot reach it there: a sample's
// true peak is at most its taps' largest magnitude times the largest sum of a phase's |h| (the bound
// below, a hair over for rounding). The largest magnitude of each block of BOUND_BLOCK samples is
// kept (an eighth of a byte a sample), and the 36 multiplications of peakAt are spent only where the
// bound could reach the level asked about, which leaves every result as it was.
const BOUND_BLOCK_BITS = 4;
const BOUND_BLOCK = 1 << BOUND_BLOCK_BITS;
const TP_BOUND = Math.max(1, ...TP_FILTER.map((h) => h.reduce((sum, v) => sum + Math.abs(v), 0))) * (1 + 1e-9) * INT16_SCALE;

/** The largest magnitude in each block of BOUND_BLOCK samples of `x`. */
function blockPeaks(x: Int16Array): Uint16Array {
  const blocks = new Uint16Array(Math.ceil(x.length / BOUND_BLOCK));
  for (let i = 0; i < x.length; i++) {
    const v = Math.abs(x[i]);
    const b = (i / BOUND_BLOCK) | 0;
    if (v > blocks[b]) blocks[b] = v;
  }
  return blocks;
}

/** At least peakAt(x, i), from the blocks of `x` its taps read (blockPeaks). */
function peakBound(blocks: Uint16Array, i: number): number {
  const from = Math.max(0, i - TP_TAPS / 2 + 1) / BOUND_BLOCK;
  const to = Math.min(blocks.length * BOUND_BLOCK - 1, i + TP_TAPS / 2) / BOUND_BLOCK;
  let m = 0;
  for (let b = from | 0; b <= (to | 0); b++) if (blocks[b] > m) m = blocks[b];
  return m * TP_BOUND;
}

/**
 * At least the true peak of every sample of block b (blockPeaks): a sample's taps reach no further
 * than the blocks beside its own.
 */
function blockBound(blocks: Uint16Array, b: number): number {
  return Math.max(blocks[b], b > 0 ? blocks[b - 1] : 0, b + 1 < blocks.length ? blocks[b + 1] : 0) * TP_BOUND;
}

/** True peak, linear. */
export function truePeak(samples: Int16Array): number {
  return truePeakAbove(samples, blockPeaks(samples), 0);
}

/**
 * The true peak of `x` when it is above `floor`, else at most `floor`: blocks whose bound does not
 * reach the largest peak found so far (or `floor`) are passed over whole.
 */
function truePeakAbove(x: Int16Array, blocks: Uint16Array, floor: number): number {
  let m = floor;
  for (let b = 0; b < blocks.length; b++) if (blockBound(blocks, b) > m) m = blockTruePeak(x, blocks, b, m);
  return m;
}

/** The largest of `floor` and the true peaks of block b's samples, passing over those whose bound is under it. */
function blockTruePeak(x: Int16Array, blocks: Uint16Array, b: number, floor: number): number {
  let m = floor;
  const end = Math.min(x.length, (b + 1) * BOUND_BLOCK);
  for (let i = b * BOUND_BLOCK; i < end; i++) if (peakBound(blocks, i) > m) m = Math.max(m, peakAt(x, i));
  return m;
}

/**
 * `x` times `gain` through a look-ahead limiter on the oversampled peak, handed to `emit` in chunks
 * in order: the gain each sample needs, a sliding minimum over +-window (a monotonic deque), then a
 * centred moving average of width window + 1. Every sample in the average around a peak already
 * carries that peak's gain or less, so the peak lands under the ceiling while the gain moves smoothly
 * (no clicks). Only rings of about 2 * window values are kept. `blocks` is blockPeaks(x), and
 * `blockPeak(b)` the largest true peak of block b: every sample of a block needs the gain its
 * loudest one needs, which moves the minimum's edges by less than a block (0.7 ms at 24 kHz, in a
 * window of 5 ms each way) and computes a true peak once a block rather than once a sample, as the
 * model (LimiterModel) counts it.
 */
function limit(
  x: Int16Array,
  blocks: Uint16Array,
  blockPeak: (b: number) => number,
  gain: number,
  ceiling: number,
  window: number,
  emit: (start: number, chunk: Float64Array, length: number) => void,
): void {
  const n = x.length;
  const half = window >> 1;
  // Ring positions are taken by a mask: a power of two at least 2 * window + 2.
  const mask = 2 ** Math.ceil(Math.log2(2 * window + 2)) - 1;
  const ring = mask + 1;
  const need = new Float64Array(ring);
  const deque = new Int32Array(ring);
  let head = 0; // deque positions grow without bound; index them modulo ring
  let tail = 0;
  const mins = new Float64Array(ring);
  let sum = 0;
  let count = 0;
  const out = new Float64Array(CHUNK);
  let fill = 0;
  let blockNeed = 1;
  // The last sample that needed a gain (the start counts as one, while the sums fill): a block of
  // samples that need none, read once every minimum and average it reaches holds no gain either,
  // moves every sum by nothing and is emitted as is.
  let lastNeed = 0;
  const settled = 2 * (window + half) + 1;
  // One loop over plain locals, no closures (a closure's shared state lives in a context object):
  // this runs over every sample of a narration (normalizeLoudness). Step j reads sample j, takes
  // the minimum at k = j - window (all of its window read) into the moving average, and emits
  // sample i = k - half (all of its average taken).
  for (let j = 0; j < n + window + half; j++) {
    if (j < n) {
      // A block whose bound is under the ceiling holds no sample that needs a gain.
      if (j % BOUND_BLOCK === 0) {
        const b = j / BOUND_BLOCK;
        const peak = blockBound(blocks, b) * gain > ceiling ? blockPeak(b) * gain : 0;
        blockNeed = peak > ceiling ? ceiling / peak : 1;
        if (blockNeed === 1 && j + BOUND_BLOCK <= n && j - lastNeed > settled) {
          // The steps below, taken whole: every need, minimum and average is 1 (its sum is reset to
          // its count, so no rounding left by a gain carries on), the deque holds the newest sample.
          sum = count;
          for (let step = j; step < j + BOUND_BLOCK; step++) {
            need[step & mask] = 1;
            mins[(step - window) & mask] = 1;
            const i = step - window - half;
            out[fill++] = x[i] * INT16_SCALE * gain;
            if (fill === CHUNK) {
              emit(i + 1 - fill, out, fill);
              fill = 0;
            }
          }
          head = tail;
          deque[tail++ & mask] = j + BOUND_BLOCK - 1;
          j += BOUND_BLOCK - 1;
          continue;
        }
      }
      const needed = blockNeed;
      if (needed < 1) lastNeed = j;
      need[j & mask] = needed;
      while (tail > head && need[deque[(tail - 1) & mask] & mask] >= needed) tail--;
      deque[tail++ & mask] = j;
    }
    const k = j - window;
    if (k >= 0 && k < n) {
      while (deque[head & mask] < k - window) head++;
      const value = need[deque[head & mask] & mask];
      mins[k & mask] = value;
      sum += value;
      count++;
    }
    // The average around i = k - half loses the minimum that has left its width (at the end, only loses).
    const drop = k - 2 * half - 1;
    if (drop >= 0 && drop < n) {
      sum -= mins[drop & mask];
      count--;
    }
    const i = k - half;
    if (i < 0) continue;
    out[fill++] = x[i] * INT16_SCALE * gain * (sum / count);
    if (fill === CHUNK || i === n - 1) {
      emit(i + 1 - fill, out, fill);
      fill = 0;
    }
  }
}

/**
 * A cheap stand-in for a trial of the limiter and the meter, to aim the real trials with. It works
 * by the BOUND_BLOCK samples rather than by the sample: each block's K-weighted energy is measured
 * once, at unity gain, and a trial gain scales it by the square of the limiter's gain over the block,
 * worked out as the limiter works it out per sample (a sliding minimum of the gain each block's true
 * peak needs, then a moving average), so a trial costs a sixteenth of a sample-by-sample pass and
 * computes no true peak twice. K-weighting is linear and the limiter's gain moves slowly against it,
 * so the model misses the real loudness by an offset that barely moves with the gain: a real trial
 * measures that offset and the model re-aims with it (normalizeLoudness).
 */
class LimiterModel {
  // Single floats, a model's precision: the three arrays take 12 bytes a block of 16 samples.
  /** Each block's largest true peak, NaN until a trial needs it. */
  private readonly peaks: Float32Array;
  private readonly least: Float32Array;
  private readonly hopSums: Float64Array;
  /** The meter's hop and block, in samples (LoudnessMeter). */
  private readonly hop: number;
  private readonly block: number;
  /** The sample window of the limiter's minimum and the width of its average, in blocks. */
  private readonly spread: number;
  private readonly half: number;

  constructor(
    private readonly x: Int16Array,
    private readonly blocks: Uint16Array,
    private readonly energies: Float32Array,
    private readonly ceiling: number,
    window: number,
    rate: number,
  ) {
    ({ hop: this.hop, block: this.block } = meterSpans(rate));
    this.peaks = new Float32Array(blocks.length).fill(Number.NaN);
    this.least = new Float32Array(blocks.length);
    this.hopSums = new Float64Array(Math.ceil(x.length / this.hop));
    this.spread = Math.ceil(window / BOUND_BLOCK);
    this.half = Math.round((window >> 1) / BOUND_BLOCK);
  }

  /** The largest true peak of block b, measured once. */
  peak(b: number): number {
    if (Number.isNaN(this.peaks[b])) this.peaks[b] = blockTruePeak(this.x, this.blocks, b, 0);
    return this.peaks[b];
  }

  /** The loudness the limiter would leave at `gainDb`, in LUFS. */
  loudness(gainDb: number): number {
    const { blocks, least, energies, hopSums, spread, half } = this;
    const n = blocks.length;
    const gain = dbToLinear(gainDb);
    const reach = this.ceiling / gain; // a true peak above this needs the limiter
    // The least gain needed within `spread` blocks of each block: most blocks need none, so each
    // block that needs some lowers its neighbourhood rather than every block searching its own.
    least.fill(1);
    for (let b = 0; b < n; b++) {
      if (blockBound(blocks, b) <= reach) continue;
      const peak = this.peak(b);
      if (peak <= reach) continue;
      const need = reach / peak;
      for (let m = Math.max(0, b - spread); m <= Math.min(n - 1, b + spread); m++) if (need < least[m]) least[m] = need;
    }
    // Its moving average over 2 * half + 1 blocks, squared, weighs each block's energy.
    hopSums.fill(0);
    let total = 0;
    let sum = 0;
    let count = 0;
    for (let j = 0; j < n + half; j++) {
      if (j < n) {
        sum += least[j];
        count++;
      }
      if (j - 2 * half - 1 >= 0) {
        sum -= least[j - 2 * half - 1];
        count--;
      }
      const b = j - half;
      if (b < 0) continue;
      const g = (gain * sum) / count;
      const energy = energies[b] * g * g;
      hopSums[((b * BOUND_BLOCK) / this.hop) | 0] += energy;
      total += energy;
    }
    return gatedLoudness(hopSums.subarray(0, Math.floor(this.x.length / this.hop)), this.hop, this.block, this.x.length, total);
  }

  /** The gain at which the model reaches `lufs`, by the secant method from `gainDb`. */
  aim(lufs: number, gainDb: number): number {
    let previous: { gainDb: number; lufs: number } | undefined;
    for (let step = 0; step < MODEL_STEPS; step++) {
      const modelled = this.loudness(gainDb);
      const error = lufs - modelled;
      if (Math.abs(error) < MODEL_TOLERANCE_LU) break;
      const slope = previous ? (modelled - previous.lufs) / (gainDb - previous.gainDb) : FIRST_SLOPE;
      previous = { gainDb, lufs: modelled };
      gainDb += error / Math.min(1, Math.max(0.2, slope));
    }
    return gainDb;
  }
}

/**
 * Normalises `samples` in place to -16 LUFS integrated with true peak at most -4 dBTP, so every
 * encoding stays under -1 dBTP; silence is left as is. Each trial gain is aimed by the limiter's
 * model and runs the limiter into a 16-bit copy while it is metered, and the last trial is the chosen
 * one, so its copy is the result: no pass is run again to write it. The copy doubles the paragraph's
 * samples while it is normalised, and the model adds under a byte a sample, which stays near the
 * join's own peak (the pieces and the master, 4 bytes a sample: docs/narration.md "Memory and long
 * articles").
 */
export function normalizeLoudness(samples: Int16Array, sampleRate: number): Int16Array {
  const energies = new Float32Array(Math.ceil(samples.length / BOUND_BLOCK));
  const inputLufs = meterSamples(new LoudnessMeter(sampleRate, energies), samples).integrated();
  if (!Number.isFinite(inputLufs)) return samples;
  const window = Math.max(1, Math.round((LIMITER_WINDOW_MS / 1000) * sampleRate));
  const ceiling = dbToLinear(TRUE_PEAK_CEILING_DBTP - CODEC_HEADROOM_DB);
  const blocks = blockPeaks(samples);
  const limited = new Int16Array(samples.length);
  const model = new LimiterModel(samples, blocks, energies, ceiling, window, sampleRate);
  const blockPeak = (b: number) => model.peak(b);
  // The model is aimed at the target, a real trial measures how far it missed, and the model is
  // aimed again with that offset: the limiter's share of the gain is the model's to find.
  let offset = 0;
  let gainDb = TARGET_LUFS - inputLufs;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    gainDb = model.aim(TARGET_LUFS - offset, gainDb);
    const meter = new LoudnessMeter(sampleRate);
    limit(samples, blocks, blockPeak, dbToLinear(gainDb), ceiling * LIMITER_MARGIN, window, (start, chunk, length) => {
      meter.push(chunk, length);
      for (let k = 0; k < length; k++) limited[start + k] = floatToInt16(chunk[k]);
    });
    const lufs = meter.integrated();
    if (Math.abs(TARGET_LUFS - lufs) < TOLERANCE_LU || pass === MAX_PASSES - 1) break;
    offset = lufs - model.loudness(gainDb);
  }
  samples.set(limited);
  // If a peak still pokes over the ceiling, trade loudness for it, never the other way round.
  const peak = truePeakAbove(samples, blockPeaks(samples), ceiling);
  if (peak > ceiling) {
    const gain = ceiling / peak;
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(samples[i] * gain);
  }
  return samples;
}
