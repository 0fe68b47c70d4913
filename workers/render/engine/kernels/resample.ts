// AssemblyScript, compiled by scripts/vendor-engine.mjs into vendor/resample.wasm (WebAssembly with
// SIMD): the inner loop of workers/render/engine/resample.ts, which was a twentieth of a render's CPU
// in JavaScript (bench/results.md "Issue 44: the resampler and the mark in WebAssembly"). Two taps a
// vector, summed in double precision as JavaScript sums them: only the order of the additions differs,
// and the outputs matched the JavaScript's to the bit on every signal tried.

/**
 * y[i] for i < count = the sum over k < width of table[phase * width + k] * x[from + k], where from =
 * base - span + 1, and (base, phase) starts at (base0, phase0) and moves by down / up an output sample.
 * `x` holds the input samples of a signal of `total` samples from index `first` on, as many as the
 * taps of these outputs read within the signal; a tap outside the signal reads silence.
 * `width` is a multiple of 4. Each output is a float, or with `int16` the float times `gain` as 16
 * bits, rounded as engine/pcm.ts floatToInt16 rounds it (clamped to [-1, 1], then times 32,768 below
 * zero and 32,767 above, rounded half up).
 */
export function resample(
  x: usize,
  first: i32,
  total: i32,
  y: usize,
  count: i32,
  table: usize,
  up: i32,
  down: i32,
  span: i32,
  width: i32,
  base0: i32,
  phase0: i32,
  int16: bool,
  gain: f64,
): void {
  let base = base0;
  let phase = phase0;
  for (let n: i32 = 0; n < count; n++) {
    const s = <f32>tapSum(x, first, total, table, span, width, base, phase);
    if (int16) {
      const v = min<f64>(1, max<f64>(-1, <f64>s * gain));
      store<i16>(y + ((<usize>n) << 1), <i16>Math.floor(v * (v < 0 ? 32768 : 32767) + 0.5));
    } else {
      store<f32>(y + ((<usize>n) << 2), s);
    }
    phase += down;
    const step = phase / up;
    base += step;
    phase -= step * up;
  }
}

/** One output: the taps of row `phase` over the input from base - span + 1. */
function tapSum(x: usize, first: i32, total: i32, table: usize, span: i32, width: i32, base: i32, phase: i32): f64 {
  const from = base - span + 1;
  const row = table + <usize>(phase * (width << 2));
  let s: f64 = 0;
  if (from >= 0 && from + width <= total) {
    const at = x + ((<usize>(from - first)) << 2);
    let low = f64x2.splat(0);
    let high = f64x2.splat(0);
    for (let k: i32 = 0; k < width << 2; k += 16) {
      const h = v128.load(row + k);
      const v = v128.load(at + k);
      low = f64x2.add(low, f64x2.mul(f64x2.promote_low_f32x4(h), f64x2.promote_low_f32x4(v)));
      const h2 = i32x4.shuffle(h, h, 2, 3, 0, 1);
      const v2 = i32x4.shuffle(v, v, 2, 3, 0, 1);
      high = f64x2.add(high, f64x2.mul(f64x2.promote_low_f32x4(h2), f64x2.promote_low_f32x4(v2)));
    }
    const sum = f64x2.add(low, high);
    s = f64x2.extract_lane(sum, 0) + f64x2.extract_lane(sum, 1);
  } else {
    for (let k: i32 = 0; k < width; k++) {
      const j = from + k;
      if (j >= 0 && j < total) s += <f64>load<f32>(row + ((<usize>k) << 2)) * <f64>load<f32>(x + ((<usize>(j - first)) << 2));
    }
  }
  return s;
}
