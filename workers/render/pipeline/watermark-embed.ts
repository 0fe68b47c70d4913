import markWasm from "../engine/vendor/mark.wasm";
import { Fft } from "../../kernel/watermark/fft";
import {
  BAND_START,
  BAND_WIDTH,
  BITS_PER_FRAME,
  BLOCK_FRAMES,
  blockSigns,
  FRAME,
  MARK_STRENGTH,
  PAIRS,
  type MarkLayout,
  type MarkPayload,
} from "../../kernel/watermark/scheme";

const fft = new Fft(FRAME);
/** sqrt of a periodic Hann window: analysis and synthesis together make a Hann, which sums to 1 at half-frame hops. */
const ROOT_HANN = Float64Array.from({ length: FRAME }, (_, i) => Math.sqrt(0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME)));

/** Windows marked a call: the kernel's memory holds their samples only, never a whole paragraph. */
const WINDOWS_PER_CALL = 64;

interface Kernel {
  memory: WebAssembly.Memory;
  markWindows(...args: number[]): number;
}

const kernel = new WebAssembly.Instance(markWasm).exports as unknown as Kernel;

/**
 * The kernel's memory: the scheme's tables, written once, then a paragraph's signs, the ring and
 * the scratch of a frame, then the samples of one call's windows. Doubles first, so each is aligned.
 */
const layout = (() => {
  let at = 0;
  const take = (bytes: number) => ((at += bytes), at - bytes);
  const hann = take(8 * FRAME);
  const cos = take(8 * (FRAME / 2));
  const sin = take(8 * (FRAME / 2));
  const pairSigns = take(8 * BLOCK_FRAMES * PAIRS);
  const ring = take(8 * 2 * FRAME);
  const re = take(8 * FRAME);
  const im = take(8 * FRAME);
  const gain = take(8 * FRAME);
  const rev = take(4 * FRAME);
  const lows = take(4 * PAIRS);
  return { hann, cos, sin, pairSigns, ring, re, im, gain, rev, lows, samples: at };
})();
{
  const grow = layout.samples - kernel.memory.buffer.byteLength;
  if (grow > 0) kernel.memory.grow(Math.ceil(grow / 65_536));
  const { buffer } = kernel.memory;
  new Float64Array(buffer, layout.hann, FRAME).set(ROOT_HANN);
  new Float64Array(buffer, layout.cos, FRAME / 2).set(fft.cos);
  new Float64Array(buffer, layout.sin, FRAME / 2).set(fft.sin);
  new Uint32Array(buffer, layout.rev, FRAME).set(fft.rev);
  new Int32Array(buffer, layout.lows, PAIRS).set(Array.from({ length: PAIRS }, (_, pair) => BAND_START(2 * pair)));
}

/**
 * `samples` (mono, 16-bit, at MARK_RATE) with the mark of `payload` added, from block position 0 at
 * sample 0. The change is computed in the short-time spectrum (half-frame hops, root-Hann windows):
 * each analysis window belongs to the frame that holds its centre, and in that frame's bands the
 * magnitude is scaled by 1 +- MARK_STRENGTH, phases kept; the difference is overlap-added back.
 * Silence stays silence: a window over a paragraph's first word would otherwise spread the change
 * into the quiet before it, where it would be heard as the word starting early.
 *
 * Windows start a quarter frame early, so each window's centre falls inside one frame, never on a
 * frame's edge: the two windows of a frame, at its quarter and three quarters, share its gains. A
 * real gain symmetric in frequency scales the two real windows alike when they are the real and
 * imaginary parts of one complex transform, so each frame takes one transform each way, not two.
 *
 * The kernel (engine/kernels/mark.ts) does the work, a few windows a call: the change is kept for
 * the open windows only (a ring of two frames) and each sample written out once no later window
 * reaches it, so a paragraph is never held whole beside its copy (docs/narration.md "Memory and long
 * articles"). `windowsPerCall` is for tests, which cut the work at every window.
 */
export function markSamples(samples: Int16Array, keyed: MarkLayout, payload: MarkPayload, windowsPerCall = WINDOWS_PER_CALL): Int16Array {
  const signs = blockSigns(keyed, payload);
  const n = samples.length;
  const out = new Int16Array(n);
  let buffer = kernel.memory.buffer;
  const pairSigns = new Float64Array(buffer, layout.pairSigns, BLOCK_FRAMES * PAIRS);
  for (let frame = 0; frame < BLOCK_FRAMES; frame++) {
    for (let pair = 0; pair < PAIRS; pair++) {
      pairSigns[frame * PAIRS + pair] = signs[frame * BITS_PER_FRAME + keyed.slot[pair]] * keyed.orientation[pair] * MARK_STRENGTH;
    }
  }
  new Float64Array(buffer, layout.ring, 2 * FRAME).fill(0);
  new Float64Array(buffer, layout.gain, FRAME).fill(0);
  const windows = Math.ceil((n + FRAME / 4) / FRAME); // window j starts at j * FRAME - FRAME / 4, before n
  const startOf = (j: number) => j * FRAME - FRAME / 4;
  let written = 0;
  for (let j0 = 0; j0 < windows; j0 += windowsPerCall) {
    const j1 = Math.min(windows, j0 + windowsPerCall);
    // The samples before the next window's start are final once these windows are marked.
    const until = j1 === windows ? n : startOf(j1);
    const end = Math.min(n, startOf(j1 - 1) + (3 * FRAME) / 2);
    const xAt = layout.samples;
    const outAt = xAt + 2 * (end - written);
    const grow = outAt + 2 * (until - written) - buffer.byteLength;
    if (grow > 0) {
      kernel.memory.grow(Math.ceil(grow / 65_536));
      buffer = kernel.memory.buffer;
    }
    new Int16Array(buffer, xAt, end - written).set(samples.subarray(written, end));
    const { ring, re, im, gain, hann, cos, sin, rev, lows } = layout;
    const from = written;
    written = kernel.markWindows(
      ...[xAt, from, n, outAt, from, j0, j1, until, ring, re, im, gain, hann, cos, sin, rev, FRAME],
      ...[layout.pairSigns, BLOCK_FRAMES, PAIRS, lows, BAND_WIDTH],
    );
    out.set(new Int16Array(buffer, outAt, written - from), from);
  }
  return out;
}
