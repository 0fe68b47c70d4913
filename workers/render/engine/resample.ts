// Windowed-sinc (Kaiser) resampler for mono PCM, e.g. eSpeak's 22,050 Hz to the 24 kHz master or
// the master to Opus's 48 kHz. For a rational ratio up/down (after the gcd) with up <= 4096 the kernel
// is tabulated per output phase, so each output sample costs 2 * span multiply-adds, which run in
// WebAssembly SIMD (kernels/resample.ts) a block of output at a time.
import { floatToInt16, type Pcm, type Pcm16 } from "./pcm";
import resampleWasm from "./vendor/resample.wasm";

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
function kernelAt(d: number, fc: number, span: number): number {
  const r = d / span;
  if (r <= -1 || r >= 1) return 0;
  const x = Math.PI * fc * d;
  return (d === 0 ? fc : (fc * Math.sin(x)) / x) * (bessel0(BETA * Math.sqrt(1 - r * r)) / I0_BETA);
}

/** Output samples computed a call: the kernel's memory holds their input and output only, never a whole piece. */
const BLOCK = 16_384;

interface Kernel {
  memory: WebAssembly.Memory;
  resample(
    x: number,
    first: number,
    total: number,
    y: number,
    count: number,
    table: number,
    up: number,
    down: number,
    span: number,
    width: number,
    base: number,
    phase: number,
    int16: boolean,
    gain: number,
  ): void;
}

const kernel = new WebAssembly.Instance(resampleWasm).exports as unknown as Kernel;
/** Where each tabulated kernel sits in the kernel's memory, by rate pair, and where the free memory after them starts. */
const tables = new Map<string, number>();
let free = 0;

/** Bytes at `free` and after it, growing the kernel's memory as needed. */
function reserve(bytes: number): number {
  const short = free + bytes - kernel.memory.buffer.byteLength;
  if (short > 0) kernel.memory.grow(Math.ceil(short / 65_536));
  return free;
}

/**
 * The kernel tabulated per phase (up rows of `width` taps, `width` a multiple of 4, the taps past
 * 2 * span zero), placed in the kernel's memory once per rate pair: building one calls bessel0 up *
 * width times, the same for every piece.
 */
function tableFor(up: number, width: number, fc: number, span: number): number {
  const key = `${up}:${width}:${fc}`;
  let at = tables.get(key);
  if (at === undefined) {
    at = reserve(up * width * 4);
    const table = new Float32Array(kernel.memory.buffer, at, up * width).fill(0); // the memory held earlier blocks
    for (let p = 0; p < up; p++) {
      for (let k = 0; k < 2 * span; k++) table[p * width + k] = kernelAt(k - span + 1 - p / up, fc, span);
    }
    free = at + table.byteLength;
    tables.set(key, at);
  }
  return at;
}

export function resample(input: Pcm, outRate: number): Pcm {
  if (input.sampleRate === outRate) return input;
  const plan = planFor(input.sampleRate, outRate);
  const y = new Float32Array(Math.round((input.samples.length * outRate) / input.sampleRate));
  if (plan.table === null) return { samples: withoutTable(input.samples, plan, y), sampleRate: outRate };
  return { samples: withKernel(input.samples, plan, y, null), sampleRate: outRate };
}

/**
 * `input` at `outRate` and times `gain`, as 16 bits (pcm.ts floatToInt16): one step from a provider's
 * floats to a 16-bit piece, with no Float32 copy at the new rate.
 */
export function resampleToInt16(input: Pcm, outRate: number, gain: number): Pcm16 {
  const plan = input.sampleRate === outRate ? null : planFor(input.sampleRate, outRate);
  if (plan === null || plan.table === null) {
    const floats = resample(input, outRate).samples;
    const samples = new Int16Array(floats.length);
    for (let i = 0; i < samples.length; i++) samples[i] = floatToInt16(floats[i] * gain);
    return { samples, sampleRate: outRate };
  }
  const y = new Int16Array(Math.round((input.samples.length * outRate) / input.sampleRate));
  return { samples: withKernel(input.samples, plan, y, gain), sampleRate: outRate };
}

interface Plan {
  up: number;
  down: number;
  fc: number;
  span: number;
  /** Taps a phase: 2 * span, rounded up to a multiple of 4 (the kernel's vectors). */
  width: number;
  /** Where the tabulated kernel sits in the kernel's memory; null when up is over 4,096. */
  table: number | null;
}

function planFor(inRate: number, outRate: number): Plan {
  const g = gcd(inRate, outRate);
  const up = outRate / g;
  const ratio = Math.min(1, outRate / inRate);
  const fc = 0.97 * ratio; // when downsampling, cut at the output Nyquist (anti-aliasing)
  const span = Math.ceil(HALF / ratio); // the kernel widens in time as the cut-off drops
  const width = (2 * span + 3) & ~3;
  return { up, down: inRate / g, fc, span, width, table: up <= 4096 ? tableFor(up, width, fc, span) : null };
}

/** `x` resampled into `y` by the kernel a block at a time, as floats (gain null) or as 16 bits times `gain`. */
function withKernel<Y extends Float32Array | Int16Array>(x: Float32Array, plan: Plan, y: Y, gain: number | null): Y {
  const { up, down, span, width } = plan;
  for (let n = 0; n < y.length; n += BLOCK) {
    const count = Math.min(BLOCK, y.length - n);
    const { base, phase } = position(n, up, down);
    // The input samples the block's taps read: from the first output's first tap to the last's last.
    const first = Math.max(0, base - span + 1);
    const end = Math.min(x.length, position(n + count - 1, up, down).base - span + 1 + width);
    const xAt = reserve(4 * (end - first + count));
    const yAt = xAt + 4 * (end - first);
    new Float32Array(kernel.memory.buffer, xAt, end - first).set(x.subarray(first, end));
    kernel.resample(xAt, first, x.length, yAt, count, plan.table!, up, down, span, width, base, phase, gain !== null, gain ?? 1);
    y.set(gain === null ? new Float32Array(kernel.memory.buffer, yAt, count) : new Int16Array(kernel.memory.buffer, yAt, count), n);
  }
  return y;
}

/** `x` resampled into `y` with the kernel computed at each tap: for rate pairs too far apart for a table. */
function withoutTable(x: Float32Array, { up, down, fc, span }: Plan, y: Float32Array): Float32Array {
  for (let n = 0; n < y.length; n++) {
    const { base, phase } = position(n, up, down);
    let s = 0;
    for (let k = Math.max(0, span - 1 - base); k < Math.min(2 * span, x.length - base + span - 1); k++) {
      s += kernelAt(k - span + 1 - phase / up, fc, span) * x[base - span + 1 + k];
    }
    y[n] = s;
  }
  return y;
}

/** Output n sits at input position n * down / up = base + phase / up, exactly in integers. */
function position(n: number, up: number, down: number): { base: number; phase: number } {
  const num = n * down;
  const base = Math.floor(num / up);
  return { base, phase: num - base * up };
}
