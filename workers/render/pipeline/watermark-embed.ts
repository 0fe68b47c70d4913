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

/** The change of the windows still open (a window reaches 1.5 frames past its frame's start), by position modulo two frames. */
const RING_MASK = 2 * FRAME - 1;

/**
 * `samples` (mono, 16-bit, at MARK_RATE) with the mark of `payload` added, from block position 0 at
 * sample 0. The change is computed in the short-time spectrum (half-frame hops, root-Hann windows):
 * each analysis window belongs to the frame that holds its centre, and in that frame's bands the
 * magnitude is scaled by 1 +- MARK_STRENGTH, phases kept; the difference is overlap-added back.
 * Silence stays silence. The change is kept for the open windows only (a ring of two frames) and each
 * sample written out once no later window reaches it: a whole paragraph's change as floats took
 * 8 bytes a sample, four times the paragraph itself (docs/narration.md "Memory and long articles").
 */
export function markSamples(samples: Int16Array, layout: MarkLayout, payload: MarkPayload): Int16Array {
  const signs = blockSigns(layout, payload);
  const n = samples.length;
  const out = new Int16Array(n);
  const delta = new Float64Array(RING_MASK + 1);
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  const gain = new Float64Array(FRAME);
  const windowed = (to: Float64Array, start: number) => {
    let energy = 0;
    for (let i = 0; i < FRAME; i++) {
      const at = start + i;
      to[i] = at >= 0 && at < n ? samples[at] * ROOT_HANN[i] : 0;
      energy += to[i] * to[i];
    }
    return energy;
  };
  let written = 0;
  // Digital silence stays digital silence: a window over a paragraph's first word would otherwise
  // spread the change into the quiet before it, where it would be heard as the word starting early.
  const writeUntil = (end: number) => {
    for (; written < Math.min(end, n); written++) {
      const at = written & RING_MASK;
      const value = samples[written];
      out[written] = value === 0 ? 0 : Math.max(-32768, Math.min(32767, Math.round(value + delta[at])));
      delta[at] = 0;
    }
  };
  // Windows start a quarter frame early, so each window's centre falls inside one frame, never on a
  // frame's edge: the two windows of a frame, at its quarter and three quarters, share its gains. A
  // real gain symmetric in frequency scales the two real windows alike when they are the real and
  // imaginary parts of one complex transform, so each frame takes one transform each way, not two.
  for (let start = -FRAME / 4; start < n; start += FRAME) {
    writeUntil(start); // no window from here on reaches a sample before `start`
    if (windowed(re, start) + windowed(im, start + FRAME / 2) === 0) continue;
    const frame = Math.floor((start + FRAME / 2) / FRAME) % BLOCK_FRAMES;
    for (let pair = 0; pair < PAIRS; pair++) {
      const sign = signs[frame * BITS_PER_FRAME + layout.slot[pair]] * layout.orientation[pair] * MARK_STRENGTH;
      const low = BAND_START(2 * pair);
      for (let b = 0; b < BAND_WIDTH; b++) {
        gain[low + b] = gain[FRAME - low - b] = sign;
        gain[low + BAND_WIDTH + b] = gain[FRAME - low - BAND_WIDTH - b] = -sign;
      }
    }
    fft.forward(re, im);
    for (let k = 0; k < FRAME; k++) {
      re[k] *= gain[k];
      im[k] *= gain[k];
    }
    fft.inverse(re, im);
    for (let i = 0; i < FRAME; i++) {
      const at = start + i;
      if (at >= 0) delta[at & RING_MASK] += re[i] * ROOT_HANN[i];
      delta[(at + FRAME / 2) & RING_MASK] += im[i] * ROOT_HANN[i];
    }
  }
  writeUntil(n);
  return out;
}
