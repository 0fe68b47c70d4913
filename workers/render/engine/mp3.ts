// MP3 through LAME compiled to WebAssembly (wasm-media-encoders, MIT; LAME is LGPL). The package's
// createMp3Encoder() compiles an embedded base64 .wasm from bytes, which Workers refuse;
// createEncoder() takes the imported, already compiled module instead (copied into vendor/ by
// scripts/vendor-engine.mjs).
import { createEncoder } from "wasm-media-encoders";
import mp3Wasm from "./vendor/lame-mp3.wasm";
import { concatBytes, type Pcm16 } from "./pcm";

/** Constant bit rate in kbit/s: CBR keeps players' duration estimates and seeking exact; 64 is ample for mono speech. */
const BITRATE = 64;
/**
 * LAME's frames decode at 0.95 of its input level (-0.45 dB, the same at every rate and bit rate we
 * tried, with ffmpeg's decoder and mpg123 alike), so the input is raised by the inverse and the MP3
 * plays at the master's -16 LUFS. The master peaks at -4 dBTP (loudness.ts), so this cannot clip.
 */
const INPUT_SCALE = 1 / 0.95 / 32768;
/** Samples per encode() call, bounding the encoder's buffer and the float block (256 KB). */
const CHUNK = 1 << 16;

/**
 * One MP3 stream fed in parts: a long render's segments go through the same LAME encoder, so the
 * file has one encoder delay at its start and no padding gap where segments meet.
 */
export interface Mp3Stream {
  /** Encodes more samples; returns the MP3 frames completed so far (copies, owned by the caller). */
  encode(samples: Int16Array): Uint8Array[];
  /** Flushes the encoder: the last frames. */
  finish(): Uint8Array;
}

/** Samples in one MP3 frame: 1,152 for MPEG-1 (32 kHz and up), 576 for MPEG-2 (the master's 24 kHz). */
export const mp3FrameSamples = (sampleRate: number) => (sampleRate >= 32_000 ? 1152 : 576);

/**
 * LAME's encoder delay (576 samples) and the decoder's (529) put a unit's first sample 1,105 samples
 * into its frames, and its flush ends two frames after its input: a unit's frames therefore hold
 * its input less its last two frames' worth of samples.
 */
const UNIT_TAIL_FRAMES = 2;

/**
 * Encodes units one by one, each into frames of its own (docs/narration.md "Encoded by the
 * paragraph"): a unit is a whole number of frames long and ends in at least two frames of silence
 * (engine/units.ts), and its frames decode to exactly as many samples, its audio 1,105 samples in,
 * as one encoder running through all of them would place it. Each unit starts a fresh encoder, so
 * no frame's bit reservoir reaches into the unit before it: units' frames can be laid end to end,
 * and a unit encoded once is reused wherever it is laid.
 */
export async function mp3Units(sampleRate: number): Promise<(parts: Int16Array[]) => Uint8Array> {
  const encoder = await createEncoder("audio/mpeg", mp3Wasm);
  const frame = mp3FrameSamples(sampleRate);
  const frameBytes = (((frame / 8) * BITRATE * 1000) / sampleRate) | 0;
  const block = new Float32Array(CHUNK);
  return (parts) => {
    const total = parts.reduce((n, p) => n + p.length, 0);
    if (total % frame !== 0 || total < (UNIT_TAIL_FRAMES + 1) * frame) throw new Error(`mp3: a unit of ${total} samples is not whole frames`);
    encoder.configure({ channels: 1, sampleRate, bitrate: BITRATE }); // a fresh encoder: no reservoir carried in
    const out: Uint8Array[] = [];
    let left = total - UNIT_TAIL_FRAMES * frame; // the tail left out is silence, and the flush makes it again
    for (const part of parts) {
      for (let i = 0; i < part.length && left > 0; i += CHUNK) {
        const n = Math.min(CHUNK, part.length - i, left);
        for (let k = 0; k < n; k++) block[k] = part[i + k] * INPUT_SCALE;
        out.push(encoder.encode([block.subarray(0, n)]).slice()); // a view into WebAssembly memory: copy
        left -= n;
      }
    }
    out.push(encoder.finalize().slice());
    const bytes = concatBytes(out);
    if (bytes.byteLength !== (total / frame) * frameBytes) throw new Error(`mp3: a unit of ${total} samples made ${bytes.byteLength} bytes`);
    return bytes;
  };
}

export async function mp3Stream(sampleRate: number): Promise<Mp3Stream> {
  const encoder = await createEncoder("audio/mpeg", mp3Wasm);
  encoder.configure({ channels: 1, sampleRate, bitrate: BITRATE });
  // LAME takes floats, so each chunk is converted (and scaled) into one reused block.
  const block = new Float32Array(CHUNK);
  return {
    encode(samples) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < samples.length; i += CHUNK) {
        const n = Math.min(CHUNK, samples.length - i);
        for (let k = 0; k < n; k++) block[k] = samples[i + k] * INPUT_SCALE;
        parts.push(encoder.encode([block.subarray(0, n)]).slice()); // a view into WebAssembly memory: copy
      }
      return parts;
    },
    finish: () => encoder.finalize().slice(),
  };
}

/** MP3 of the 16-bit master. */
export async function encodeMp3(pcm: Pcm16): Promise<Uint8Array> {
  const stream = await mp3Stream(pcm.sampleRate);
  return concatBytes([...stream.encode(pcm.samples), stream.finish()]);
}
