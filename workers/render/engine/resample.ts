// Windowed-sinc (Kaiser) resampler for mono PCM, e.g. eSpeak's 22,050 Hz to the 24 kHz master or
// the master to Opus's 48 kHz. For a rational ratio up/down (after the gcd) with up <= 4096 the kernel
// is tabulated per output phase, so each output sample costs 2 * span multiply-adds.
import type { Pcm } from "./pcm";

/** Zero crossings each side of the kernel. */
const HALF = 16;
/** Kaiser window shape: about 85-90 dB stop-band rejection. */
const BETA = 8.6;

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** Modified Bessel function of the first kind, order 0 (for the Kaiser window). */
export function bessel0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 40; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

const I0_BETA = bessel0(BETA);

/** Low-pass kernel at distance d (input samples), cut-off fc (fraction of the input Nyquist), half-width span. */
function kernel(d: number, fc: number, span: number): number {
  const r = d / span;
  if (r <= -1 || r >= 1) return 0;
  const x = Math.PI * fc * d;
  return (d === 0 ? fc : (fc * Math.sin(x)) / x) * (bessel0(BETA * Math.sqrt(1 - r * r)) / I0_BETA);
}

/** Kernel tables by rate pair: a table is the same for every piece, and building one calls bessel0 up * width times. */
const tables = new Map<string, Float32Array>();

function tableFor(up: number, width: number, fc: number, span: number): Float32Array {
  const key = `${up}:${width}:${fc}`;
  let table = tables.get(key);
  if (!table) {
    table = new Float32Array(up * width);
    for (let p = 0; p < up; p++) {
      for (let k = 0; k < width; k++) table[p * width + k] = kernel(k - span + 1 - p / up, fc, span);
    }
    tables.set(key, table);
  }
  return table;
}

export function resample(input: Pcm, outRate: number): Pcm {
  const inRate = input.sampleRate;
  const x = input.samples;
  if (inRate === outRate) return input;
  const g = gcd(inRate, outRate);
  const up = outRate / g;
  const down = inRate / g;
  const ratio = Math.min(1, outRate / inRate);
  const fc = 0.97 * ratio; // when downsampling, cut at the output Nyquist (anti-aliasing)
  const span = Math.ceil(HALF / ratio); // the kernel widens in time as the cut-off drops
  const width = 2 * span;
  const outLength = Math.round((x.length * outRate) / inRate);
  const y = new Float32Array(outLength);
  const table = up <= 4096 ? tableFor(up, width, fc, span) : undefined;
  for (let n = 0; n < outLength; n++) {
    // Output n sits at input position n * down / up = base + phase / up, exactly in integers.
    const num = n * down;
    const base = Math.floor(num / up);
    const phase = num - base * up;
    const k0 = Math.max(0, span - 1 - base);
    const k1 = Math.min(width, x.length - base + span - 1);
    const from = base - span + 1; // the input sample under tap 0
    let s = 0;
    if (table) {
      const row = phase * width;
      for (let k = k0; k < k1; k++) s += table[row + k] * x[from + k];
    } else {
      for (let k = k0; k < k1; k++) s += kernel(k - span + 1 - phase / up, fc, span) * x[from + k];
    }
    y[n] = s;
  }
  return { samples: y, sampleRate: outRate };
}
