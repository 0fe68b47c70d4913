import { fromInt16Le, type Pcm } from "./pcm";

/** Wraps mono 16-bit little-endian PCM bytes in a WAVE header. */
export function wavFromInt16(data: Uint8Array, sampleRate: number): Uint8Array {
  const out = new Uint8Array(44 + data.byteLength);
  out.set(wavHeader(data.byteLength, sampleRate));
  out.set(data, 44);
  return out;
}

/** The canonical 44-byte header of a mono 16-bit PCM WAVE file with `dataBytes` bytes of samples. */
export function wavHeader(dataBytes: number, sampleRate: number): Uint8Array {
  const out = new Uint8Array(44);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[offset + i] = s.charCodeAt(i);
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  return out;
}

/**
 * Decodes a 16-bit mono PCM WAVE file. Streaming writers (espeak-ng, Deepgram) put placeholder sizes
 * in the header because they cannot seek back, so the data chunk is clamped to the bytes present.
 */
export function decodeWav(bytes: Uint8Array): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (o: number) => String.fromCharCode(bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]);
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a WAVE file");
  let sampleRate = 0;
  let channels = 0;
  let bits = 0;
  for (let o = 12; o + 8 <= bytes.length; ) {
    const id = tag(o);
    const size = view.getUint32(o + 4, true);
    if (id === "fmt ") {
      channels = view.getUint16(o + 10, true);
      sampleRate = view.getUint32(o + 12, true);
      bits = view.getUint16(o + 22, true);
    } else if (id === "data") {
      if (bits !== 16 || channels !== 1) throw new Error(`unsupported WAVE: ${channels} channels, ${bits} bits`);
      const length = Math.min(size, bytes.length - o - 8) & ~1;
      return fromInt16Le(bytes.subarray(o + 8, o + 8 + length), sampleRate);
    }
    o += 8 + size + (size & 1);
  }
  throw new Error("WAVE file has no data chunk");
}
