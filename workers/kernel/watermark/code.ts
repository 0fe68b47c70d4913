// The mark's error protection: a CRC-16 over the payload (CCITT, polynomial 0x1021) that tells a
// read payload from noise, and a convolutional code (constraint length 7, rate 1/3, the generator
// polynomials 133, 171, 165 octal of 3GPP TS 36.212 §5.1.3.1) decoded by soft-decision Viterbi, so
// that coded bits lost to a codec or noise are corrected from their neighbours.

const POLYS = [0o133, 0o171, 0o165];
const MEMORY = 6;
const STATES = 1 << MEMORY;

/** CRC-16/CCITT-FALSE of a bit sequence, as 16 bits, most significant first. */
export function crc16(bits: readonly number[]): number[] {
  let crc = 0xffff;
  for (const bit of bits) {
    const top = ((crc >> 15) & 1) ^ bit;
    crc = (crc << 1) & 0xffff;
    if (top) crc ^= 0x1021;
  }
  return Array.from({ length: 16 }, (_, i) => (crc >> (15 - i)) & 1);
}

const parity = (x: number) => {
  let p = 0;
  for (let v = x; v; v &= v - 1) p ^= 1;
  return p;
};

/** The coded bits of `bits` followed by MEMORY zero bits that bring the encoder back to state 0. */
export function convolve(bits: readonly number[]): number[] {
  const out: number[] = [];
  let reg = 0;
  for (const bit of [...bits, ...new Array(MEMORY).fill(0)]) {
    reg = ((reg << 1) | bit) & ((1 << (MEMORY + 1)) - 1);
    for (const g of POLYS) out.push(parity(reg & g));
  }
  return out;
}

/** Coded bits for `n` input bits. */
export const codedLength = (n: number) => (n + MEMORY) * POLYS.length;

/**
 * The most likely `n` input bits given soft values of the coded bits (positive: a 1 is likelier),
 * by the Viterbi algorithm with a correlation metric, ending in state 0.
 */
export function viterbi(soft: ArrayLike<number>, n: number): number[] {
  const steps = n + MEMORY;
  let metric = new Float64Array(STATES).fill(-Infinity);
  metric[0] = 0;
  const from = new Uint8Array(steps * STATES);
  const outputs = Array.from({ length: STATES * 2 }, (_, x) => POLYS.map((g) => parity(x & g)));
  for (let t = 0; t < steps; t++) {
    const next = new Float64Array(STATES).fill(-Infinity);
    for (let s = 0; s < STATES; s++) {
      if (metric[s] === -Infinity) continue;
      for (let bit = 0; bit <= (t < n ? 1 : 0); bit++) {
        const reg = (s << 1) | bit;
        const out = outputs[reg];
        let m = metric[s];
        for (let k = 0; k < POLYS.length; k++) m += out[k] ? soft[t * POLYS.length + k] : -soft[t * POLYS.length + k];
        const ns = reg & (STATES - 1);
        if (m > next[ns]) {
          next[ns] = m;
          from[t * STATES + ns] = s;
        }
      }
    }
    metric = next;
  }
  const bits: number[] = [];
  let s = 0;
  for (let t = steps - 1; t >= 0; t--) {
    const prev = from[t * STATES + s];
    if (t < n) bits.push(s & 1);
    s = prev;
  }
  return bits.reverse();
}
