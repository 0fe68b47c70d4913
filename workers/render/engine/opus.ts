// Ogg Opus (RFC 7845) from mono PCM: packets from OpusFrameEncoder, paged here.
import { BEGIN_OF_STREAM, END_OF_STREAM, oggPage, segmentsFor } from "./ogg";
import { OpusFrameEncoder } from "./opus-frames";
import { concatBytes } from "./pcm";

/** Granule positions and pre-skip count 48 kHz samples whatever the input rate (RFC 7845 §4). */
const GRANULE_RATE = 48_000;
/** Frames of silence an encoder of one unit hears before the unit (opusUnits). */
const PRIMING_FRAMES = 3;
/** About one second of packets per page. */
const PACKETS_PER_PAGE = 50;

/** One Ogg Opus stream fed in parts (a long render's master segments, in order). */
export interface OggOpusStream {
  /** Encodes more samples; returns the Ogg pages completed so far. */
  encode(samples: Int16Array): Uint8Array[];
  /** Flushes the encoder and releases it: the last pages. */
  finish(): Uint8Array[];
}

/**
 * Encodes mono 16-bit PCM as Ogg Opus at its own rate, frame by frame, so a long article needs no
 * second copy and its segments go through one encoder without a gap. `serial` is the Ogg stream
 * serial number; one derived from the content makes the output deterministic. `comments` go into
 * the comment header as Vorbis comments (NAME=value, RFC 7845 §5.2).
 */
export async function oggOpusStream(sampleRate: number, serial: number, comments: [string, string][] = []): Promise<OggOpusStream> {
  const encoder = await OpusFrameEncoder.create(sampleRate);
  const { frame, lookahead } = encoder;
  const pager = oggOpusPager(sampleRate, frame, lookahead, serial, comments);
  const take = framer(frame, (input) => pager.add(encoder.encode(input)));
  let total = 0; // samples taken

  return {
    encode(samples) {
      take(samples);
      total += samples.length;
      return pager.drain();
    },
    finish() {
      // `lookahead` samples of padding flush the encoder, and the last frame is padded with
      // silence; the last granule position (pre-skip + real length) tells decoders to drop the
      // padding again (RFC 7845 §4.4).
      take(new Int16Array(lookahead));
      if (take.filled() > 0) take(new Int16Array(frame - take.filled()));
      for (const packet of encoder.finish()) pager.add(packet);
      return pager.end(total);
    },
  };
}

/** Cuts samples fed in parts of any length into whole frames for `encode`; `filled()` is how many wait for the next. */
function framer(frame: number, encode: (input: Int16Array) => void): ((samples: Int16Array) => void) & { filled(): number } {
  const input = new Int16Array(frame);
  let filled = 0;
  const take = (samples: Int16Array) => {
    for (let i = 0; i < samples.length; ) {
      const chunk = samples.subarray(i, i + frame - filled);
      input.set(chunk, filled);
      filled += chunk.length;
      i += chunk.length;
      if (filled === frame) {
        encode(input);
        filled = 0;
      }
    }
  };
  return Object.assign(take, { filled: () => filled });
}

/** Pages Opus packets of `frame` input samples each into one Ogg Opus stream (RFC 7845). */
interface OggOpusPager {
  add(packet: Uint8Array | undefined): void;
  /** The pages completed so far. */
  drain(): Uint8Array[];
  /** The last pages: the stream ends `length` input samples after the pre-skip. */
  end(length: number): Uint8Array[];
}

function oggOpusPager(sampleRate: number, frame: number, lookahead: number, serial: number, comments: [string, string][]): OggOpusPager {
  const scale = GRANULE_RATE / sampleRate;
  let pages: Uint8Array[] = [
    oggPage([opusHead(lookahead * scale, sampleRate)], 0n, serial, 0, BEGIN_OF_STREAM),
    oggPage([opusTags("narration-render", comments)], 0n, serial, 1, 0),
  ];
  let batch: Uint8Array[] = [];
  let segments = 0;
  let sequence = 2;
  let frames = 0; // packets paged
  const drain = () => {
    const done = pages;
    pages = [];
    return done;
  };
  return {
    add(packet) {
      if (!packet) return;
      if (segments + segmentsFor(packet.length) > 255 || batch.length >= PACKETS_PER_PAGE) {
        pages.push(oggPage(batch, BigInt(frames * frame * scale), serial, sequence++, 0));
        batch = [];
        segments = 0;
      }
      batch.push(packet);
      segments += segmentsFor(packet.length);
      frames++;
    },
    drain,
    end(length) {
      pages.push(oggPage(batch, BigInt((lookahead + length) * scale), serial, sequence, END_OF_STREAM));
      return drain();
    },
  };
}

/**
 * One Ogg Opus stream made of units encoded one by one (docs/narration.md "Encoded by the
 * paragraph"): `unit` encodes a unit (whole Opus frames, ending in at least the encoder's look-ahead
 * of silence: engine/units.ts) into packets of its own, one per frame, with a fresh encoder, so its
 * packets decode to exactly its length and stand anywhere in the stream; `pages` lays units'
 * packets in order into the Ogg file, its granule positions counting every unit and the pre-skip
 * the encoder's look-ahead, as one encoder running through all of them would.
 */
export interface OpusUnits {
  unit(parts: Int16Array[]): Promise<Uint8Array[]>;
  /** An Ogg pager for one file (`serial`, `comments`); `end` adds one packet of silence for the decoder to trim. */
  pager(serial: number, comments: [string, string][]): { add(packets: Uint8Array[]): Uint8Array[]; end(): Promise<Uint8Array[]> };
}

export async function opusUnits(sampleRate: number): Promise<OpusUnits> {
  const probe = await OpusFrameEncoder.create(sampleRate);
  const { frame, lookahead } = probe;
  probe.finish();
  const unit = async (parts: Int16Array[]) => {
    const total = parts.reduce((n, p) => n + p.length, 0);
    if (total % frame !== 0) throw new Error(`opus: a unit of ${total} samples is not whole frames`);
    // The encoder's look-ahead at the unit's end stays in it, unencoded: it is silence, and the next
    // unit's encoder starts from silence as this one did.
    const encoder = await OpusFrameEncoder.create(sampleRate);
    const packets: Uint8Array[] = [];
    // The encoder first hears silence, whose packets are dropped: it starts the unit in the state
    // that the decoder, which has just played the previous unit's silent end, is in.
    for (let i = 0; i < PRIMING_FRAMES; i++) encoder.encode(new Int16Array(frame));
    let primed = PRIMING_FRAMES;
    const keep = (packet: Uint8Array | undefined) => {
      if (packet && primed-- <= 0) packets.push(packet);
    };
    const take = framer(frame, (input) => keep(encoder.encode(input)));
    for (const part of parts) take(part);
    for (const packet of encoder.finish()) keep(packet);
    return packets;
  };
  return {
    unit,
    pager(serial, comments) {
      const pager = oggOpusPager(sampleRate, frame, lookahead, serial, comments);
      let length = 0;
      return {
        add(packets) {
          for (const packet of packets) pager.add(packet);
          length += packets.length * frame;
          return pager.drain();
        },
        async end() {
          // The last unit's look-ahead was never encoded: a frame of silence carries it, and the
          // last granule position trims the rest (RFC 7845 §4.4).
          for (const packet of await unit([new Int16Array(frame)])) pager.add(packet);
          return pager.end(length);
        },
      };
    },
  };
}

/** Ogg Opus of mono 16-bit PCM (the master, as stored). */
export async function encodeOggOpus(samples: Int16Array, sampleRate: number, serial: number): Promise<Uint8Array> {
  const stream = await oggOpusStream(sampleRate, serial);
  return concatBytes([...stream.encode(samples), ...stream.finish()]);
}

/** Identification header (RFC 7845 §5.1): one channel, mapping family 0. */
function opusHead(preSkip: number, inputRate: number): Uint8Array {
  const b = new Uint8Array(19);
  const view = new DataView(b.buffer);
  b.set(new TextEncoder().encode("OpusHead"));
  b[8] = 1; // version
  b[9] = 1; // channels
  view.setUint16(10, preSkip, true);
  view.setUint32(12, inputRate, true); // informational
  view.setInt16(16, 0, true); // output gain
  b[18] = 0; // mapping family
  return b;
}

/**
 * Comment header (RFC 7845 §5.2): a vendor string and the user comments, each "NAME=value" in UTF-8
 * with its 32-bit little-endian length (the Vorbis comment format; names are ASCII without "=").
 * It fits one Ogg page (255 lacing values: under 65,025 bytes), which the short tags of a narration do.
 */
function opusTags(vendor: string, comments: [string, string][]): Uint8Array {
  const encode = (s: string) => new TextEncoder().encode(s);
  for (const [name] of comments) if (!/^[\x20-\x3c\x3e-\x7d]+$/.test(name)) throw new Error(`not a Vorbis comment name: ${name}`);
  const fields = [encode(vendor), ...comments.map(([name, value]) => encode(`${name}=${value}`))];
  const b = new Uint8Array(8 + 4 + fields.reduce((n, f) => n + 4 + f.length, 0));
  const view = new DataView(b.buffer);
  b.set(encode("OpusTags"));
  let at = 8;
  fields.forEach((f, i) => {
    view.setUint32(at, f.length, true);
    b.set(f, at + 4);
    at += 4 + f.length;
    if (i === 0) {
      view.setUint32(at, comments.length, true);
      at += 4;
    }
  });
  return b;
}
