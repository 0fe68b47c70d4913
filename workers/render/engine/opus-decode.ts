// Ogg Opus (RFC 7845) back to mono PCM, for the watermark detector (POST /v1/marks/detect): pages
// read per RFC 3533, packets decoded by the libopus the encoder already uses (libopus.ts), which
// mixes a stereo stream down when its decoder is made for one channel.
import { check, libopus } from "./libopus";
import { concatBytes } from "./pcm";

/** The longest Opus packet: 120 ms, at the rate decoded to. */
const MAX_PACKET_MS = 120;

/** Whether `bytes` begins as an Ogg stream whose first packet is an Opus identification header. */
export function isOggOpus(bytes: Uint8Array): boolean {
  return ascii(bytes, 0, 4) === "OggS" && bytes.length > 35 && ascii(bytes, 28, 8) === "OpusHead";
}

/**
 * The first Opus stream of an Ogg file as mono 16-bit samples at `rate` (8, 12, 16, 24 or 48 kHz),
 * pre-skip dropped, at most `maxSamples`; null when it is not Ogg Opus or a packet does not decode.
 */
export async function decodeOggOpus(bytes: Uint8Array, rate: number, maxSamples: number): Promise<Int16Array | null> {
  const packets = oggPackets(bytes);
  const head = packets.next().value;
  if (!head || ascii(head, 0, 8) !== "OpusHead" || head.length < 19) return null;
  const preSkip = Math.round(((head[10] | (head[11] << 8)) * rate) / 48_000);
  const w = await libopus();
  const frame = (rate * MAX_PACKET_MS) / 1000;
  const state = w.malloc(w.opus_decoder_get_size(1));
  const pcm = w.malloc(frame * 2);
  let data = w.malloc(1);
  let capacity = 1;
  const out: Int16Array[] = [];
  let total = 0;
  try {
    check(w.opus_decoder_init(state, rate, 1), "decoder init");
    packets.next(); // OpusTags
    for (const packet of packets) {
      if (total >= maxSamples + preSkip) break;
      if (packet.length > capacity) {
        w.free(data);
        capacity = packet.length;
        data = w.malloc(capacity);
      }
      new Uint8Array(w.memory.buffer, data, packet.length).set(packet);
      const n = w.opus_decode(state, data, packet.length, pcm, frame, 0);
      if (n < 0) return null;
      out.push(new Int16Array(w.memory.buffer, pcm, n).slice());
      total += n;
    }
  } finally {
    w.free(data);
    w.free(pcm);
    w.free(state);
  }
  const samples = new Int16Array(Math.max(0, Math.min(total - preSkip, maxSamples)));
  let at = -preSkip;
  for (const part of out) {
    const from = Math.max(0, -at);
    const take = Math.min(part.length, samples.length - at);
    if (take > from) samples.set(part.subarray(from, take), at + from);
    at += part.length;
  }
  return samples;
}

/** The packets of the first logical stream of an Ogg file, in order (a packet continued across pages joined). */
function* oggPackets(bytes: Uint8Array): Generator<Uint8Array> {
  let serial: number | null = null;
  let pending: Uint8Array[] = [];
  for (let at = 0; at + 27 <= bytes.length && ascii(bytes, at, 4) === "OggS"; ) {
    const view = new DataView(bytes.buffer, bytes.byteOffset + at);
    const pageSerial = view.getUint32(14, true);
    const segments = bytes[at + 26];
    let body = at + 27 + segments;
    const mine = serial === null || pageSerial === serial;
    serial ??= pageSerial;
    for (let s = 0; s < segments; s++) {
      const length = bytes[at + 27 + s];
      if (mine) {
        pending.push(bytes.subarray(body, body + length));
        if (length < 255) {
          yield pending.length === 1 ? pending[0] : concatBytes(pending);
          pending = [];
        }
      }
      body += length;
    }
    at = body;
  }
}

const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));
