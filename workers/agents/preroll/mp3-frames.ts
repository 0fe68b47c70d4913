/**
 * MPEG audio frame boundaries (ISO/IEC 11172-3 and 13818-3, Layer III), enough to join two MP3
 * files of the same encoder settings at a frame boundary: skip an ID3v2 tag, find the first
 * frame, and step over the LAME/Xing "Info" frame, which describes only its own file and would
 * give a joined file a wrong frame count.
 */

const BITRATES_KBPS = {
  mpeg1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  mpeg2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES = { mpeg1: [44100, 48000, 32000], mpeg2: [22050, 24000, 16000], mpeg25: [11025, 12000, 8000] };

/** The fields of a Layer III frame header that decide how two files may be joined and how long a frame is. */
export interface FrameHeader {
  version: "mpeg1" | "mpeg2" | "mpeg25";
  sampleRate: number;
  mono: boolean;
  /** Bytes of the whole frame, header included. */
  length: number;
}

/** The Layer III frame header at `offset`, or null when the bytes there are not one. */
export function frameHeader(bytes: Uint8Array, offset: number): FrameHeader | null {
  if (offset + 4 > bytes.length || bytes[offset] !== 0xff || (bytes[offset + 1] & 0xe0) !== 0xe0) return null;
  const versionBits = (bytes[offset + 1] >> 3) & 0x3;
  const layerBits = (bytes[offset + 1] >> 1) & 0x3;
  if (versionBits === 1 || layerBits !== 1) return null; // reserved version; only Layer III
  const version = versionBits === 3 ? "mpeg1" : versionBits === 2 ? "mpeg2" : "mpeg25";
  const bitrate = BITRATES_KBPS[version === "mpeg1" ? "mpeg1" : "mpeg2"][bytes[offset + 2] >> 4] * 1000;
  const rateIndex = (bytes[offset + 2] >> 2) & 0x3;
  if (!bitrate || rateIndex === 3) return null; // free format or bad index
  const sampleRate = SAMPLE_RATES[version][rateIndex];
  const padding = (bytes[offset + 2] >> 1) & 0x1;
  const mono = bytes[offset + 3] >> 6 === 3;
  // Samples per frame: 1152 (MPEG-1) or 576; bytes = samples / 8 * bitrate / rate (+ one padding byte).
  const length = Math.floor(((version === "mpeg1" ? 144 : 72) * bitrate) / sampleRate) + padding;
  return { version, sampleRate, mono, length };
}

/** Where the frames start: after an ID3v2 tag (its size is four 7-bit bytes, ID3v2.4 §3.1); 0 without one. */
export function afterId3(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size = (bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9];
  return 10 + size + (bytes[5] & 0x10 ? 10 : 0);
}

/**
 * `tag`, a whole ID3v2.3 or v2.4 tag, without its frames whose id is in `drop`, the header's size
 * fixed (ID3v2.4 §3.1, §4: frame sizes are synchsafe in 2.4, plain in 2.3). A tag with an extended
 * header or unsynchronisation, which our tags never have, is returned as it is.
 */
export function id3Without(tag: Uint8Array, drop: readonly string[]): Uint8Array {
  if (tag.length < 10 || tag[5] & 0xc0) return tag;
  const view = new DataView(tag.buffer, tag.byteOffset, tag.byteLength);
  const synchsafe = (at: number) => (tag[at] << 21) | (tag[at + 1] << 14) | (tag[at + 2] << 7) | tag[at + 3];
  const end = Math.min(tag.length, 10 + synchsafe(6));
  const kept: Uint8Array[] = [];
  for (let at = 10; at + 10 <= end && tag[at] !== 0; ) {
    const size = tag[3] === 4 ? synchsafe(at + 4) : view.getUint32(at + 4);
    const frame = tag.subarray(at, Math.min(end, at + 10 + size));
    if (!drop.includes(String.fromCharCode(...frame.subarray(0, 4)))) kept.push(frame);
    at += 10 + size;
  }
  const size = kept.reduce((n, f) => n + f.length, 0);
  const out = new Uint8Array(10 + size);
  out.set(tag.subarray(0, 6));
  out.set([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f], 6);
  let at = 10;
  for (const f of kept) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

/** Whether the frame at `offset` is a Xing/Info tag frame: the tag follows the side information. */
function isInfoFrame(bytes: Uint8Array, offset: number, header: FrameHeader): boolean {
  const sideInfo = header.version === "mpeg1" ? (header.mono ? 17 : 32) : header.mono ? 9 : 17;
  const at = offset + 4 + sideInfo;
  const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
  return tag === "Xing" || tag === "Info";
}

/**
 * The offset of the first audio frame in `head` (the first bytes of a file: an ID3v2 tag and the
 * first two frames must be inside it) and that frame's header. Throws when no frame is found.
 */
export function firstAudioFrame(head: Uint8Array): { offset: number; header: FrameHeader } {
  const offset = afterId3(head);
  const header = frameHeader(head, offset);
  if (!header) throw new Error("not an MP3 file: no Layer III frame where the frames should start");
  if (!isInfoFrame(head, offset, header)) return { offset, header };
  const next = offset + header.length;
  const second = frameHeader(head, next);
  if (!second) throw new Error("MP3 file has an Info frame and no audio frame after it");
  return { offset: next, header: second };
}

/** Whether frames of `a` and `b` may follow each other in one stream: same version, rate and channels. */
export function joinable(a: FrameHeader, b: FrameHeader): boolean {
  return a.version === b.version && a.sampleRate === b.sampleRate && a.mono === b.mono;
}
