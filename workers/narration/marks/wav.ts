// The audio the mark is read from, brought to what the detector takes: mono float samples at MARK_RATE.

import { MARK_RATE } from "../../kernel/watermark/scheme";

/**
 * The samples of a RIFF WAVE file (PCM of 8, 16, 24 or 32 bits, or 32-bit float; any rate and
 * number of channels), averaged to mono, with their rate; null when `bytes` is not such a file.
 */
export function readWav(bytes: Uint8Array): { samples: Float32Array; rate: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.byteLength < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") return null;
  let format: { code: number; channels: number; rate: number; bits: number } | null = null;
  for (let at = 12; at + 8 <= bytes.byteLength; ) {
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (tag(at) === "fmt " && size >= 16) {
      const code = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE names the real format in the first two bytes of its sub-format GUID.
      format = {
        code: code === 0xfffe && size >= 40 ? view.getUint16(body + 24, true) : code,
        channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (tag(at) === "data" && format) {
      return decode(view, body, Math.min(size, bytes.byteLength - body), format);
    }
    at = body + size + (size % 2);
  }
  return null;
}

function decode(
  view: DataView,
  from: number,
  length: number,
  { code, channels, rate, bits }: { code: number; channels: number; rate: number; bits: number },
): { samples: Float32Array; rate: number } | null {
  const width = bits / 8;
  const read: ((at: number) => number) | null =
    code === 3 && bits === 32
      ? (at) => view.getFloat32(at, true)
      : code !== 1
        ? null
        : bits === 8
          ? (at) => (view.getUint8(at) - 128) / 128
          : bits === 16
            ? (at) => view.getInt16(at, true) / 32768
            : bits === 24
              ? (at) => (view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8388608
              : bits === 32
                ? (at) => view.getInt32(at, true) / 2147483648
                : null;
  if (!read || channels < 1 || rate < 1000) return null;
  const frames = Math.floor(length / (width * channels));
  const samples = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += read(from + (i * channels + c) * width);
    samples[i] = sum / channels;
  }
  return { samples, rate };
}

/**
 * `samples` at `rate` brought to MARK_RATE by linear interpolation, averaged over each output
 * sample's span first when the rate falls, so what lies above the new Nyquist frequency is damped
 * rather than folded onto the marked band.
 */
export function toMarkRate(samples: Float32Array, rate: number): Float32Array {
  if (rate === MARK_RATE) return samples;
  const step = rate / MARK_RATE;
  const span = Math.max(1, Math.round(step));
  let source = samples;
  if (span > 1) {
    source = new Float32Array(samples.length);
    let sum = 0;
    for (let i = 0; i < samples.length; i++) {
      sum += samples[i] - (i >= span ? samples[i - span] : 0);
      source[i] = sum / Math.min(span, i + 1);
    }
  }
  const out = new Float32Array(Math.floor(samples.length / step));
  for (let i = 0; i < out.length; i++) {
    const at = i * step;
    const k = Math.floor(at);
    const frac = at - k;
    out[i] = source[k] * (1 - frac) + (source[k + 1] ?? source[k]) * frac;
  }
  return out;
}
