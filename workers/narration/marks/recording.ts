// A recording sent to POST /v1/marks/detect, as the detector reads it: mono float samples at MARK_RATE.
import { renderService } from "../../kernel/render-contract";
import { MARK_RATE } from "../../kernel/watermark/scheme";
import { readWav, toMarkRate } from "./wav";

/** Most audio read from an Ogg Opus file: six minutes, about what the largest WAV body holds at 24 kHz. */
const MAX_OPUS_SECONDS = 360;

/**
 * The samples of a WAV file (read here) or of an Ogg Opus file (decoded by the render Worker's
 * libopus, render/engine/opus-decode.ts); null for anything else.
 */
export async function recordingSamples(env: object, bytes: Uint8Array): Promise<Float32Array | null> {
  const wav = readWav(bytes);
  if (wav) return toMarkRate(wav.samples, wav.rate);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== "OggS") return null;
  const pcm = await renderService(env).decodeOpus(bytes, MAX_OPUS_SECONDS * MARK_RATE);
  return pcm && Float32Array.from(pcm, (x) => x / 32768);
}
