// AssemblyScript, compiled by scripts/vendor-engine.mjs into vendor/mark.wasm (WebAssembly with SIMD):
// the loop of workers/render/pipeline/watermark-embed.ts markSamples, its windows, transforms and
// overlap-add, which took a fifteenth of a render's CPU in JavaScript (bench/results.md "Issue 44:
// the resampler and the mark in WebAssembly"). The same operations on doubles in the same order
// (two independent butterflies or samples a vector), so the marked samples are the same to the bit.
// The tables (window, twiddles, bit reversal, each frame's signs) come from the caller, so no
// constant of the scheme is written twice.

/**
 * Marks the windows j0 <= j < j1 (window j starts at sample j * frame - frame / 4; workers/render/
 * pipeline/watermark-embed.ts says how), then writes out every sample before `until` not yet
 * written, and returns how many are written in all. `x` holds the input samples (16-bit) from index
 * `xFirst` on, as many as these windows and writes read; `out` takes the output samples from index
 * `written` on. `ring` holds the change of the windows still open (2 * frame doubles), kept
 * between calls; `re`, `im` and `gain` are frame doubles each of scratch, `gain` zero where no band
 * lies. `pairSigns[f * pairs + p]` is pair p's signed strength in frame f of a block, and `lows[p]`
 * its lower band's first bin (its upper band follows it).
 */
export function markWindows(
  x: usize,
  xFirst: i32,
  n: i32,
  out: usize,
  written: i32,
  j0: i32,
  j1: i32,
  until: i32,
  ring: usize,
  re: usize,
  im: usize,
  gain: usize,
  hann: usize,
  cos: usize,
  sin: usize,
  rev: usize,
  frame: i32,
  pairSigns: usize,
  blockFrames: i32,
  pairs: i32,
  lows: usize,
  bandWidth: i32,
): i32 {
  const outFirst = written;
  const mask = 2 * frame - 1;
  for (let j = j0; j < j1; j++) {
    const start = j * frame - frame / 4;
    written = writeUntil(x, xFirst, n, out, outFirst, written, start, ring, mask);
    if (windowed(x, xFirst, n, re, hann, frame, start) + windowed(x, xFirst, n, im, hann, frame, start + frame / 2) === 0) continue;
    const signs = pairSigns + ((<usize>((j % blockFrames) * pairs)) << 3);
    for (let pair = 0; pair < pairs; pair++) {
      const sign = load<f64>(signs + ((<usize>pair) << 3));
      const low = load<i32>(lows + ((<usize>pair) << 2));
      for (let b = 0; b < bandWidth; b++) {
        store<f64>(gain + ((<usize>(low + b)) << 3), sign);
        store<f64>(gain + ((<usize>(frame - low - b)) << 3), sign);
        store<f64>(gain + ((<usize>(low + bandWidth + b)) << 3), -sign);
        store<f64>(gain + ((<usize>(frame - low - bandWidth - b)) << 3), -sign);
      }
    }
    transform(re, im, cos, sin, rev, frame, 1);
    for (let k = 0; k < frame << 3; k += 16) {
      const g = v128.load(gain + k);
      v128.store(re + k, f64x2.mul(v128.load(re + k), g));
      v128.store(im + k, f64x2.mul(v128.load(im + k), g));
    }
    transform(re, im, cos, sin, rev, frame, -1);
    const size = f64x2.splat(<f64>frame);
    for (let k = 0; k < frame << 3; k += 16) {
      v128.store(re + k, f64x2.div(v128.load(re + k), size));
      v128.store(im + k, f64x2.div(v128.load(im + k), size));
    }
    for (let i = 0; i < frame; i++) {
      const at = start + i;
      const h = load<f64>(hann + ((<usize>i) << 3));
      if (at >= 0) {
        const r = ring + ((<usize>(at & mask)) << 3);
        store<f64>(r, load<f64>(r) + load<f64>(re + ((<usize>i) << 3)) * h);
      }
      const r2 = ring + ((<usize>((at + frame / 2) & mask)) << 3);
      store<f64>(r2, load<f64>(r2) + load<f64>(im + ((<usize>i) << 3)) * h);
    }
  }
  return writeUntil(x, xFirst, n, out, outFirst, written, until, ring, mask);
}

/**
 * Writes samples from `written` up to `end` (at most n): each plus its change, rounded half up as
 * JavaScript's Math.round does, to 16 bits; silence stays silence. Their change is taken from the ring.
 */
function writeUntil(x: usize, xFirst: i32, n: i32, out: usize, outFirst: i32, written: i32, end: i32, ring: usize, mask: i32): i32 {
  const last = min(end, n);
  for (; written < last; written++) {
    const r = ring + ((<usize>(written & mask)) << 3);
    const value = <f64>load<i16>(x + ((<usize>(written - xFirst)) << 1));
    let rounded: f64 = 0;
    if (value !== 0) {
      const v = value + load<f64>(r);
      rounded = Math.floor(v);
      if (v - rounded >= 0.5) rounded += 1;
      rounded = max<f64>(-32768, min<f64>(32767, rounded));
    }
    store<i16>(out + ((<usize>(written - outFirst)) << 1), <i16>rounded);
    store<f64>(r, 0);
  }
  return written;
}

/** Window `to` = the samples from `start` (silence outside the signal) times the root-Hann; returns its energy. */
function windowed(x: usize, xFirst: i32, n: i32, to: usize, hann: usize, frame: i32, start: i32): f64 {
  let energy: f64 = 0;
  for (let i = 0; i < frame; i++) {
    const at = start + i;
    const v = at >= 0 && at < n ? <f64>load<i16>(x + ((<usize>(at - xFirst)) << 1)) * load<f64>(hann + ((<usize>i) << 3)) : 0;
    store<f64>(to + ((<usize>i) << 3), v);
    energy += v * v;
  }
  return energy;
}

/** The radix-2 transform of workers/kernel/watermark/fft.ts, in place, unscaled; sign -1 for the inverse. */
function transform(re: usize, im: usize, cos: usize, sin: usize, rev: usize, n: i32, sign: f64): void {
  for (let i = 0; i < n; i++) {
    const j = load<u32>(rev + ((<usize>i) << 2));
    if (j > <u32>i) {
      const ai = (<usize>i) << 3;
      const aj = (<usize>j) << 3;
      const r = load<f64>(re + ai);
      store<f64>(re + ai, load<f64>(re + aj));
      store<f64>(re + aj, r);
      const m = load<f64>(im + ai);
      store<f64>(im + ai, load<f64>(im + aj));
      store<f64>(im + aj, m);
    }
  }
  // The first stage's only twiddle is 1 - 0i: one butterfly at a time.
  for (let a = 0; a < n; a += 2) {
    const wr = load<f64>(cos);
    const wi = sign * load<f64>(sin);
    const pa = (<usize>a) << 3;
    const pb = pa + 8;
    const xr = load<f64>(re + pb) * wr - load<f64>(im + pb) * wi;
    const xi = load<f64>(re + pb) * wi + load<f64>(im + pb) * wr;
    store<f64>(re + pb, load<f64>(re + pa) - xr);
    store<f64>(im + pb, load<f64>(im + pa) - xi);
    store<f64>(re + pa, load<f64>(re + pa) + xr);
    store<f64>(im + pa, load<f64>(im + pa) + xi);
  }
  // Later stages: the butterflies of twiddles k and k + 1 side by side, which touch neighbouring elements.
  for (let len = 4; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = n / len;
    for (let k = 0; k < half; k += 2) {
      const c0 = cos + ((<usize>(k * step)) << 3);
      const c1 = cos + ((<usize>((k + 1) * step)) << 3);
      const s0 = sin + ((<usize>(k * step)) << 3);
      const s1 = sin + ((<usize>((k + 1) * step)) << 3);
      const wr = f64x2.replace_lane(f64x2.splat(load<f64>(c0)), 1, load<f64>(c1));
      const wi = f64x2.mul(f64x2.splat(sign), f64x2.replace_lane(f64x2.splat(load<f64>(s0)), 1, load<f64>(s1)));
      for (let a = k; a < n; a += len) {
        const pa = (<usize>a) << 3;
        const pb = (<usize>(a + half)) << 3;
        const rb = v128.load(re + pb);
        const ib = v128.load(im + pb);
        const xr = f64x2.sub(f64x2.mul(rb, wr), f64x2.mul(ib, wi));
        const xi = f64x2.add(f64x2.mul(rb, wi), f64x2.mul(ib, wr));
        const ra = v128.load(re + pa);
        const ia = v128.load(im + pa);
        v128.store(re + pb, f64x2.sub(ra, xr));
        v128.store(im + pb, f64x2.sub(ia, xi));
        v128.store(re + pa, f64x2.add(ra, xr));
        v128.store(im + pa, f64x2.add(ia, xi));
      }
    }
  }
}
