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
/** Trial gains through the limiter at most; the last one tried is kept. */
const MAX_PASSES = 5;
/** How near the target the trial passes stop: a tenth of a loudness unit, the meter's own resolution. */
const TOLERANCE_LU = 0.1;
/**
 * The share of an added gain the first re-aim expects to hear: at this target and ceiling the limiter
 * takes about half of it from speech (slopes of 0.24 to 0.43 measured on the offline engine's voices):
 * aiming as if none were taken used all five trials there, this four.
 */
const FIRST_SLOPE = 0.5;
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

/**
 * Integrated loudness measured sample by sample (no copy of the signal): K-weighting, then the
 * mean square of 400 ms blocks with 75 % overlap (BS.1770-4 §2.8) kept as 100 ms hop sums, gated
 * at -70 LUFS absolute and -10 LU relative.
 */
class LoudnessMeter {
  private readonly b: number[][];
  private readonly a: number[][];
  private state = [0, 0, 0, 0, 0, 0, 0, 0];
  private readonly hop: number;
  private readonly block: number;
  private readonly hopSums: number[] = [];
  private hopSum = 0;
  private hopFill = 0;
  private total = 0;
  private count = 0;

  constructor(rate: number) {
    const [shelf, highpass] = kWeightingCoefficients(rate);
    this.b = [shelf[0], highpass[0]];
    this.a = [shelf[1], highpass[1]];
    this.hop = Math.round(0.1 * rate);
    this.block = Math.round(0.4 * rate);
  }

  /**
   * Meters `length` samples of `chunk`. The filters' state and sums are read into locals once per
   * chunk and written back after it, so the loop works in registers rather than in fields.
   */
  push(chunk: Float64Array, length: number): void {
    const [b0, b1, b2] = this.b[0];
    const [, a1, a2] = this.a[0];
    const [c0, c1, c2] = this.b[1];
    const [, d1, d2] = this.a[1];
    let [x1, x2, y1, y2, u1, u2, v1, v2] = this.state;
    let { total, hopSum, hopFill } = this;
    const hop = this.hop;
    for (let i = 0; i < length; i++) {
      const x = chunk[i];
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      const v = c0 * y + c1 * u1 + c2 * u2 - d1 * v1 - d2 * v2;
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
    }
    this.state = [x1, x2, y1, y2, u1, u2, v1, v2];
    this.total = total;
    this.hopSum = hopSum;
    this.hopFill = hopFill;
    this.count += length;
  }

  /** LUFS; -Infinity for silence. */
  integrated(): number {
    let powers: number[];
    if (this.count < this.block) {
      // Shorter than one block: the whole signal as one block (BS.1770 leaves this case undefined).
      powers = this.count ? [this.total / this.count] : [];
    } else {
      const perBlock = this.block / this.hop;
      powers = [];
      for (let j = 0; j + perBlock <= this.hopSums.length; j++) {
        let s = 0;
        for (let k = 0; k < perBlock; k++) s += this.hopSums[j + k];
        powers.push(s / this.block);
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
}

/** Integrated loudness in LUFS (-Infinity for silence). */
export function integratedLoudness(samples: Int16Array, sampleRate: number): number {
  const meter = new LoudnessMeter(sampleRate);
  const chunk = new Float64Array(CHUNK);
  for (let start = 0; start < samples.length; start += CHUNK) {
    const length = Math.min(CHUNK, samples.length - start);
    for (let k = 0; k < length; k++) chunk[k] = samples[start + k] * INT16_SCALE;
    meter.push(chunk, length);
  }
  return meter.integrated();
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
const BOUND_BLOCK = 16;
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

/** True peak, linear. */
export function truePeak(samples: Int16Array): number {
  const blocks = blockPeaks(samples);
  let m = 0;
  for (let i = 0; i < samples.length; i++) if (peakBound(blocks, i) > m) m = Math.max(m, peakAt(samples, i));
  return m;
}

/**
 * `x` times `gain` through a look-ahead limiter on the oversampled peak, handed to `emit` in chunks
 * in order: the gain each sample needs, a sliding minimum over +-window (a monotonic deque), then a
 * centred moving average of width window + 1. Every sample in the average around a peak already
 * carries that peak's gain or less, so the peak lands under the ceiling while the gain moves smoothly
 * (no clicks). Only rings of about 2 * window values are kept. `blocks` is blockPeaks(x).
 */
function limit(
  x: Int16Array,
  blocks: Uint16Array,
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
  let loud = false;
  // One loop over plain locals, no closures (a closure's shared state lives in a context object):
  // this runs several times over every sample of a narration (normalizeLoudness). Step j reads
  // sample j, takes the minimum at k = j - window (all of its window read) into the moving average,
  // and emits sample i = k - half (all of its average taken).
  for (let j = 0; j < n + window + half; j++) {
    if (j < n) {
      // A block whose neighbours' samples too are all quiet holds no sample that needs a gain: its
      // samples' taps read no other block.
      if (j % BOUND_BLOCK === 0) {
        const b = j / BOUND_BLOCK;
        loud = Math.max(blocks[b], b > 0 ? blocks[b - 1] : 0, b + 1 < blocks.length ? blocks[b + 1] : 0) * TP_BOUND * gain > ceiling;
      }
      const peak = loud && peakBound(blocks, j) * gain > ceiling ? peakAt(x, j) * gain : 0;
      const needed = peak > ceiling ? ceiling / peak : 1;
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
 * Normalises `samples` in place to -16 LUFS integrated with true peak at most -4 dBTP, so every
 * encoding stays under -1 dBTP; silence is left as is. Each trial gain runs the limiter into a 16-bit
 * copy while it is metered, and the last trial is the chosen one, so its copy is the result: no pass
 * is run again to write it. The copy doubles the paragraph's samples while it is normalised, which
 * stays at the join's own peak (the pieces and the master, 4 bytes a sample: docs/narration.md
 * "Memory and long articles").
 */
export function normalizeLoudness(samples: Int16Array, sampleRate: number): Int16Array {
  const inputLufs = integratedLoudness(samples, sampleRate);
  if (!Number.isFinite(inputLufs)) return samples;
  const window = Math.max(1, Math.round((LIMITER_WINDOW_MS / 1000) * sampleRate));
  const ceiling = dbToLinear(TRUE_PEAK_CEILING_DBTP - CODEC_HEADROOM_DB);
  const blocks = blockPeaks(samples);
  const limited = new Int16Array(samples.length);
  let gainDb = TARGET_LUFS - inputLufs;
  // The limiter eats part of any added gain, so loudness grows slower than the gain: re-aim along
  // the slope of the last two passes (the secant method), which converges in two or three passes.
  let previous: { gainDb: number; lufs: number } | undefined;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const meter = new LoudnessMeter(sampleRate);
    limit(samples, blocks, dbToLinear(gainDb), ceiling, window, (start, chunk, length) => {
      meter.push(chunk, length);
      for (let k = 0; k < length; k++) limited[start + k] = floatToInt16(chunk[k]);
    });
    const lufs = meter.integrated();
    const error = TARGET_LUFS - lufs;
    if (Math.abs(error) < TOLERANCE_LU || pass === MAX_PASSES - 1) break;
    const slope = previous ? (lufs - previous.lufs) / (gainDb - previous.gainDb) : FIRST_SLOPE;
    previous = { gainDb, lufs };
    gainDb += error / Math.min(1, Math.max(0.2, slope));
  }
  samples.set(limited);
  // If a peak still pokes over the ceiling, trade loudness for it, never the other way round.
  const peak = truePeak(samples);
  if (peak > ceiling) {
    const gain = ceiling / peak;
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(samples[i] * gain);
  }
  return samples;
}
