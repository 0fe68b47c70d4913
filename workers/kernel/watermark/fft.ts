// An in-place radix-2 FFT (Cooley-Tukey, iterative), enough for the mark's short-time spectrum:
// one size, its bit reversal and twiddles computed once.

/** A complex FFT of one power-of-two size; `forward` and `inverse` work in place on re and im. */
export class Fft {
  /** The bit reversal of each index, and the twiddles' cosines and negated sines (the embedder's kernel reads them too). */
  readonly rev: Uint32Array;
  readonly cos: Float64Array;
  readonly sin: Float64Array;

  constructor(readonly size: number) {
    const bits = Math.log2(size);
    if (!Number.isInteger(bits)) throw new Error(`FFT size ${size} is not a power of two`);
    this.rev = new Uint32Array(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    for (let i = 0; i < size / 2; i++) {
      this.cos[i] = Math.cos((2 * Math.PI * i) / size);
      this.sin[i] = -Math.sin((2 * Math.PI * i) / size);
    }
  }

  forward(re: Float64Array, im: Float64Array): void {
    this.transform(re, im, 1);
  }

  /** The inverse transform, scaled by 1/size. */
  inverse(re: Float64Array, im: Float64Array): void {
    this.transform(re, im, -1);
    for (let i = 0; i < this.size; i++) {
      re[i] /= this.size;
      im[i] /= this.size;
    }
  }

  private transform(re: Float64Array, im: Float64Array, sign: 1 | -1): void {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      const j = this.rev[i];
      if (j > i) {
        const r = re[i];
        re[i] = re[j];
        re[j] = r;
        const m = im[i];
        im[i] = im[j];
        im[j] = m;
      }
    }
    for (let len = 2; len <= n; len <<= 1) {
      const half = len >> 1;
      const step = n / len;
      for (let k = 0; k < half; k++) {
        const wr = this.cos[k * step];
        const wi = sign * this.sin[k * step];
        for (let a = k; a < n; a += len) {
          const b = a + half;
          const xr = re[b] * wr - im[b] * wi;
          const xi = re[b] * wi + im[b] * wr;
          re[b] = re[a] - xr;
          im[b] = im[a] - xi;
          re[a] += xr;
          im[a] += xi;
        }
      }
    }
  }
}
