// Loudness measurement and normalisation per ITU-R BS.1770-4 and EBU R 128, for mono speech.
// The podcast norm is -16 LUFS integrated with true peak at most -1 dBTP. Speech at -16 LUFS usually
// peaks above -1 dBTP, and plain gain would then miss the loudness target, so normalisation applies
// the gain and then a look-ahead limiter on the oversampled peak, re-aiming until both hold.
import { bessel0 } from "./resample";

export const TARGET_LUFS = -16;
export const TRUE_PEAK_CEILING_DBTP = -1;
/**
 * The master is limited this far below the ceiling because lossy codecs overshoot: Opus at 32 kbit/s
 * was measured (ffmpeg ebur128) about 0.5 dB above the master's true peak, MP3 less.
 */
const CODEC_HEADROOM_DB = 1;
/** Limiter look-ahead, attack and release window. */
const LIMITER_WINDOW_MS = 5;

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

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

function kWeight(x: Float32Array, rate: number): Float64Array {
  const y = Float64Array.from(x);
  for (const [b, a] of kWeightingCoefficients(rate)) {
    let x1 = 0;
    let x2 = 0;
    let y1 = 0;
    let y2 = 0;
    for (let i = 0; i < y.length; i++) {
      const xi = y[i];
      const yi = b[0] * xi + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2;
      x2 = x1;
      x1 = xi;
      y2 = y1;
      y1 = yi;
      y[i] = yi;
    }
  }
  return y;
}

/** Mean squares of the K-weighted signal over 400 ms blocks with 75 % overlap (BS.1770-4 §2.8). */
function blockPowers(x: Float32Array, rate: number): number[] {
  const w = kWeight(x, rate);
  const block = Math.round(0.4 * rate);
  const hop = Math.round(0.1 * rate);
  // Shorter than one block: the whole signal as one block (BS.1770 leaves this case undefined).
  if (w.length < block) {
    let s = 0;
    for (let i = 0; i < w.length; i++) s += w[i] * w[i];
    return w.length ? [s / w.length] : [];
  }
  const hops = Math.floor(w.length / hop);
  const hopSums = new Float64Array(hops);
  for (let h = 0; h < hops; h++) {
    let s = 0;
    for (let i = h * hop, end = i + hop; i < end; i++) s += w[i] * w[i];
    hopSums[h] = s;
  }
  const perBlock = block / hop;
  const powers: number[] = [];
  for (let j = 0; j + perBlock <= hops; j++) {
    let s = 0;
    for (let k = 0; k < perBlock; k++) s += hopSums[j + k];
    powers.push(s / block);
  }
  return powers;
}

/** Integrated loudness in LUFS with the absolute (-70 LUFS) and relative (-10 LU) gates; -Infinity for silence. */
export function integratedLoudness(samples: Float32Array, sampleRate: number): number {
  const powers = blockPowers(samples, sampleRate);
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

// True peak by 4x oversampling (BS.1770-4 Annex 2): 4 phases of a 12-tap Kaiser-windowed sinc with
// its cut-off just below the original Nyquist. Phase 0 is the sample itself.
const TP_TAPS = 12;
const TP_PHASES = 4;
const TP_FILTER: Float64Array[] = (() => {
  const half = TP_TAPS / 2;
  const cutoff = 0.95;
  const phases: Float64Array[] = [];
  for (let p = 0; p < TP_PHASES; p++) {
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

/**
 * Per input sample, the largest magnitude among it and the three interpolated points after it
 * (outside the signal counts as silence). Linear in x: peaks(g * x) = g * peaks(x), so the
 * normaliser computes it once for every gain it tries.
 */
function oversampledPeaks(x: Float32Array): Float32Array {
  const n = x.length;
  const out = new Float32Array(n);
  // half - 1 zeros before and half + 1 after: the inner loop needs no bounds checks.
  const padded = new Float32Array(n + TP_TAPS);
  padded.set(x, TP_TAPS / 2 - 1);
  const [, h1, h2, h3] = TP_FILTER;
  for (let i = 0; i < n; i++) {
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = 0; k < TP_TAPS; k++) {
      const v = padded[i + k];
      s1 += h1[k] * v;
      s2 += h2[k] * v;
      s3 += h3[k] * v;
    }
    out[i] = Math.max(Math.abs(x[i]), Math.abs(s1), Math.abs(s2), Math.abs(s3));
  }
  return out;
}

/** True peak, linear. */
export function truePeak(samples: Float32Array): number {
  let m = 0;
  for (const v of oversampledPeaks(samples)) if (v > m) m = v;
  return m;
}

/**
 * `x` times `gain` through a look-ahead limiter on the oversampled peak (`peaks` of `x`): the gain
 * each sample needs, a sliding minimum over +-window, then a moving average of window length. Every
 * sample in the average around a peak already carries that peak's gain or less, so the peak lands
 * under the ceiling while the gain moves smoothly (no clicks).
 */
function limit(x: Float32Array, peaks: Float32Array, gain: number, ceiling: number, window: number): Float32Array {
  const n = x.length;
  const need = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const peak = peaks[i] * gain;
    need[i] = peak > ceiling ? ceiling / peak : 1;
  }
  // Sliding minimum over [i - window, i + window] with a monotonic deque.
  const min = new Float32Array(n);
  const deque = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let i = 0, next = 0; i < n; i++) {
    while (next < n && next <= i + window) {
      while (tail > head && need[deque[tail - 1]] >= need[next]) tail--;
      deque[tail++] = next++;
    }
    while (deque[head] < i - window) head++;
    min[i] = need[deque[head]];
  }
  // Centred moving average of width window + 1 (no wider than the minimum's reach).
  const half = window >> 1;
  const y = new Float32Array(n);
  let sum = 0;
  let count = 0;
  for (let i = -half; i < n; i++) {
    const add = i + half;
    const drop = i - half - 1;
    if (add < n) {
      sum += min[add];
      count++;
    }
    if (drop >= 0) {
      sum -= min[drop];
      count--;
    }
    if (i >= 0) y[i] = x[i] * gain * (sum / count);
  }
  return y;
}

/** `samples` at -16 LUFS integrated with true peak at most -2 dBTP, so every encoding stays under -1 dBTP (silence is returned as is). */
export function normalizeLoudness(samples: Float32Array, sampleRate: number): Float32Array {
  const inputLufs = integratedLoudness(samples, sampleRate);
  if (!Number.isFinite(inputLufs)) return samples;
  const window = Math.max(1, Math.round((LIMITER_WINDOW_MS / 1000) * sampleRate));
  const ceiling = dbToLinear(TRUE_PEAK_CEILING_DBTP - CODEC_HEADROOM_DB);
  const peaks = oversampledPeaks(samples);
  let gainDb = TARGET_LUFS - inputLufs;
  let y = samples;
  // Limiting lowers loudness a little, so re-aim the gain; two or three passes converge.
  for (let pass = 0; pass < 4; pass++) {
    y = limit(samples, peaks, dbToLinear(gainDb), ceiling, window);
    const lufs = integratedLoudness(y, sampleRate);
    if (Math.abs(lufs - TARGET_LUFS) < 0.05) break;
    gainDb += TARGET_LUFS - lufs;
  }
  // If a peak still pokes over the ceiling, trade loudness for it, never the other way round.
  const peak = truePeak(y);
  if (peak > ceiling) {
    const gain = ceiling / peak;
    for (let i = 0; i < y.length; i++) y[i] *= gain;
  }
  return y;
}
