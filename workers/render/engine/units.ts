// A master is laid out as units, each a paragraph and the pause before it, padded with silence to a
// whole number of MP3 frames and of Opus frames, so that each unit is encoded on its own and units'
// encoded audio is laid end to end (mp3.ts mp3Units, opus.ts opusUnits): an edited paragraph is
// encoded again, its neighbours' frames are reused (docs/narration.md "Encoded by the paragraph").
import { mp3FrameSamples } from "./mp3";
import { opusFrameSamples } from "./opus-frames";

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The length every unit is a multiple of: 2,880 samples (120 ms) at the master's 24 kHz. */
export function unitSamples(sampleRate: number): number {
  const mp3 = mp3FrameSamples(sampleRate);
  const opus = opusFrameSamples(sampleRate);
  return (mp3 * opus) / gcd(mp3, opus);
}

/**
 * Silence added after `length` samples to end a unit on a boundary of both encoders' frames. A unit
 * must also end in two MP3 frames of silence (mp3.ts), which a paragraph's own tail (join.ts
 * PAUSE_MS.start, 100 ms) gives; the silence added comes on top.
 */
export function unitPadding(length: number, sampleRate: number): number {
  const unit = unitSamples(sampleRate);
  return (unit - (length % unit)) % unit;
}
