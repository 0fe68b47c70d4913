// MP3 through LAME compiled to WebAssembly (wasm-media-encoders, MIT; LAME is LGPL). The package's
// createMp3Encoder() compiles an embedded base64 .wasm from bytes, which Workers refuse;
// createEncoder() takes the imported, already compiled module instead (copied into vendor/ by
// scripts/vendor-engine.mjs).
import { createEncoder } from "wasm-media-encoders";
import mp3Wasm from "./vendor/lame-mp3.wasm";
import { concatBytes, type Pcm16 } from "./pcm";

/** Constant bit rate in kbit/s: CBR keeps players' duration estimates and seeking exact; 64 is ample for mono speech. */
const BITRATE = 64;
/** Samples per encode() call, bounding the encoder's buffer and the float block (256 KB). */
const CHUNK = 1 << 16;

/** MP3 of the 16-bit master; LAME takes floats, so each chunk is converted into one reused block. */
export async function encodeMp3(pcm: Pcm16): Promise<Uint8Array> {
  const encoder = await createEncoder("audio/mpeg", mp3Wasm);
  encoder.configure({ channels: 1, sampleRate: pcm.sampleRate, bitrate: BITRATE });
  const block = new Float32Array(Math.min(CHUNK, pcm.samples.length));
  const parts: Uint8Array[] = [];
  for (let i = 0; i < pcm.samples.length; i += CHUNK) {
    const n = Math.min(CHUNK, pcm.samples.length - i);
    for (let k = 0; k < n; k++) block[k] = pcm.samples[i + k] / 32768;
    parts.push(encoder.encode([block.subarray(0, n)]).slice()); // a view into WebAssembly memory: copy
  }
  parts.push(encoder.finalize().slice());
  return concatBytes(parts);
}
