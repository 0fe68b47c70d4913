// The mark's layout (docs/narration.md "The watermark"): patchwork in the short-time spectrum, as
// audiowmark (GPL-3.0, Stefan Westerfeld) and the patchwork literature before it (Bender et al.,
// "Techniques for data hiding", IBM Systems Journal 35, 1996) do it, written here from the method.
// Audio at 24 kHz is cut into frames of 1024 samples; in each frame the spectrum from 300 Hz to
// 4 kHz (what a telephone, a speaker and a microphone pass) is split into bands of 4 bins, taken two by two; in each pair one band is raised and the
// other lowered by MARK_STRENGTH, which way carrying one coded bit. Which pairs carry which bit, the
// orientation of each pair, the order of the bits in a block and a scrambling sequence all come from
// the deployment's key (WATERMARK_KEY), so without it the mark can be neither read nor forged. A block
// holds sync bits (a keyed pattern that tells a marked stretch and where its block starts) and the
// payload, CRC-16 and convolutionally coded (code.ts); blocks repeat back to back from the first
// sample of each paragraph.
import { MASTER_SAMPLE_RATE } from "../audio-objects";
import { codedLength, convolve, crc16 } from "./code";

/** The rate marks are written and read at: the master rate, at which paragraphs are voiced. */
export const MARK_RATE = MASTER_SAMPLE_RATE;
/** Samples per frame; each frame carries BITS_PER_FRAME coded bits. */
export const FRAME = 1024;
/** Bins per band, the first band's first bin and the bands: 4 bins of 23.4 Hz, 305 Hz to 4.05 kHz. */
const BAND = 4;
const FIRST_BIN = 13;
export const BANDS = 40;
export const BAND_START = (band: number) => FIRST_BIN + band * BAND;
export const BAND_WIDTH = BAND;
/** Pairs of neighbouring bands, so the two compared sit in the same part of the spectral envelope. */
export const PAIRS = BANDS / 2;
export const BITS_PER_FRAME = 4;
/**
 * The relative change of a band's magnitude (+-12%, +-1 dB): strong enough that ten seconds of speech
 * carry a readable payload after low-rate codecs, weak enough to hide under the speech it rides on
 * (bench/results.md "Watermark" measures both).
 */
export const MARK_STRENGTH = 0.12;

/** Payload bits: synthetic flag, platform id, narration id. */
const PLATFORM_BITS = 7;
const ID_BITS = 32;
const PAYLOAD_BITS = 1 + PLATFORM_BITS + ID_BITS;
/** The payload's bits that are the same in every mark of this platform: the synthetic flag and platform id. */
const PREFIX_BITS = 1 + PLATFORM_BITS;
const MESSAGE_BITS = PAYLOAD_BITS + 16;
export const DATA_BITS = codedLength(MESSAGE_BITS);
/** Frames per block: room for the coded payload and at least 32 sync bits. */
export const BLOCK_FRAMES = Math.ceil((DATA_BITS + 32) / BITS_PER_FRAME);
export const BLOCK_BITS = BLOCK_FRAMES * BITS_PER_FRAME;
export const SYNC_BITS = BLOCK_BITS - DATA_BITS;

/** This platform's id in the payload: marks of other software using the scheme carry another. */
export const PLATFORM_ID = 1;

/** What a mark says: that the voice is synthetic, who made it, and an id that leads to the record. */
export interface MarkPayload {
  synthetic: boolean;
  platform: number;
  /** 8 hex digits: the first 32 bits of the paragraph's content address (render/pipeline/cache-key.ts paragraphKey). */
  id: string;
}

/** The keyed layout of the mark: which pair carries which bit of a frame and which way, and the block's bit order. */
export interface MarkLayout {
  /** Per pair: the bit of its frame (0..BITS_PER_FRAME-1) it carries. */
  slot: Uint8Array;
  /** Per pair: +1 when its lower band rises for a positive bit, -1 when its upper band does. */
  orientation: Int8Array;
  /** Per block position (frame * BITS_PER_FRAME + slot): the sign that scrambles the bit written there. */
  scramble: Int8Array;
  /** Block positions of the sync bits, then of the coded bits. */
  syncPositions: Uint16Array;
  dataPositions: Uint16Array;
  /** The sync pattern, +-1 per sync bit. */
  sync: Int8Array;
  /**
   * Block positions whose sign every paragraph's mark shares, and that sign (scrambling included): the
   * sync bits and the coded bits of the synthetic flag and platform id, which the convolutional code
   * writes before any bit of the id enters its register. Marks of two paragraphs add up on these.
   */
  knownPositions: Uint16Array;
  knownSigns: Int8Array;
}

/** The layout keyed by `key` (WATERMARK_KEY): HMAC-SHA-256 of a label seeds the generator that draws it. */
export async function markLayout(key: string): Promise<MarkLayout> {
  const hmacKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const seed = new Uint32Array(await crypto.subtle.sign("HMAC", hmacKey, new TextEncoder().encode("narration-mark v1")));
  const next = sfc32(seed[0], seed[1], seed[2], seed[3]);
  const shuffle = (n: number) => {
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  };
  const sign = () => (next() < 0.5 ? -1 : 1);
  const pairs = shuffle(PAIRS);
  const slot = new Uint8Array(PAIRS);
  pairs.forEach((pair, i) => {
    slot[pair] = i % BITS_PER_FRAME;
  });
  const orientation = Int8Array.from({ length: PAIRS }, sign);
  const scramble = Int8Array.from({ length: BLOCK_BITS }, sign);
  const positions = shuffle(BLOCK_BITS);
  const syncPositions = Uint16Array.from(positions.slice(0, SYNC_BITS));
  const dataPositions = Uint16Array.from(positions.slice(SYNC_BITS));
  const sync = Int8Array.from({ length: SYNC_BITS }, sign);
  const prefix = payloadBits({ synthetic: true, platform: PLATFORM_ID, id: "0" }).slice(0, PREFIX_BITS);
  const prefixCoded = convolve(prefix).slice(0, codedLength(PREFIX_BITS) - codedLength(0));
  const knownPositions = Uint16Array.from([...syncPositions, ...dataPositions.slice(0, prefixCoded.length)]);
  const knownSigns = Int8Array.from(knownPositions, (pos, i) =>
    i < SYNC_BITS ? sync[i] * scramble[pos] : (prefixCoded[i - SYNC_BITS] ? 1 : -1) * scramble[pos],
  );
  return { slot, orientation, scramble, syncPositions, dataPositions, sync, knownPositions, knownSigns };
}

/** The signs (+-1) a block writes at each position for `payload`, scrambling included. */
export function blockSigns(layout: MarkLayout, payload: MarkPayload): Int8Array {
  const signs = new Int8Array(BLOCK_BITS);
  layout.syncPositions.forEach((pos, i) => {
    signs[pos] = layout.sync[i] * layout.scramble[pos];
  });
  const coded = convolve(withCrc(payloadBits(payload)));
  layout.dataPositions.forEach((pos, i) => {
    signs[pos] = (coded[i] ? 1 : -1) * layout.scramble[pos];
  });
  return signs;
}

function payloadBits(payload: MarkPayload): number[] {
  const bits = [payload.synthetic ? 1 : 0];
  for (let i = PLATFORM_BITS - 1; i >= 0; i--) bits.push((payload.platform >> i) & 1);
  const id = Number.parseInt(payload.id, 16);
  for (let i = ID_BITS - 1; i >= 0; i--) bits.push(Math.floor(id / 2 ** i) % 2);
  return bits;
}

const withCrc = (bits: number[]) => [...bits, ...crc16(bits)];

/** The payload of decoded message bits, or null when their CRC does not match. */
export function payloadOf(message: number[]): MarkPayload | null {
  const bits = message.slice(0, PAYLOAD_BITS);
  if (crc16(bits).some((b, i) => b !== message[PAYLOAD_BITS + i])) return null;
  const number = (from: number, n: number) => bits.slice(from, from + n).reduce((v, b) => v * 2 + b, 0);
  return {
    synthetic: bits[0] === 1,
    platform: number(1, PLATFORM_BITS),
    id: number(1 + PLATFORM_BITS, ID_BITS)
      .toString(16)
      .padStart(8, "0"),
  };
}

export const MESSAGE_LENGTH = MESSAGE_BITS;

/** sfc32 (Chris Doty-Humphrey's small fast counter generator): uniform numbers in [0, 1). */
function sfc32(a0: number, b0: number, c0: number, d0: number): () => number {
  let [a, b, c, d] = [a0, b0, c0, d0];
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
