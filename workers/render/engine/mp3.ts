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
