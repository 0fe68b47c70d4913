// A voiced paragraph is stored under its own content address (cache-key.ts paragraphKey), so that
// a render of an edited article voices only the paragraphs whose text, voice or pronunciations
// changed (docs/narration.md "Audio by the paragraph"). One object holds all of it, so it is
// written whole or not at all and needs no row of its own: a 4-byte little-endian header length,
// the header (JSON: where its speech starts and its words), then the 16-bit little-endian master.
import { type ObjectPiece, renderStoreObjectUrl, type RenderStoreRpc } from "../../kernel/render-contract";
import { int16LeBytes } from "../engine/pcm";
import { putParts } from "./store";
import type { VoicedPassage } from "./synthesize";
import type { PieceWord } from "./word-timings";

/** R2 path of the stored paragraph `key`. Never served; shared by every article that has the paragraph. */
export const paragraphObjectPath = (key: string) => `paragraphs/${key}.pcm`;

interface Header {
  start: number | null;
  /** [text, start, end] in samples of the paragraph's master. */
  words: [string, number, number][];
}

/**
 * A paragraph as a render lays it: where its speech starts, its words, its length in samples, the
 * piece of its stored object that holds its samples (a master is composed of those pieces where the
 * objects are: store.ts), and its samples, read only when its unit has to be encoded.
 */
export interface LaidParagraph {
  start: number | null;
  words: PieceWord[];
  length: number;
  piece: ObjectPiece;
  samples(): Promise<Int16Array>;
}

/**
 * The bytes read first of a stored paragraph: its header (a long paragraph's words take a few
 * kilobytes), and the whole of a short one.
 */
const HEAD_BYTES = 64 * 1024;

/**
 * The stored paragraph `key`, or null when it has not been voiced (by this provider, voice and
 * pronunciations). Only its first bytes are read: a render whose encoded unit of it is stored too
 * needs its header, not its samples.
 */
export async function loadParagraph(store: RenderStoreRpc, key: string): Promise<LaidParagraph | null> {
  const path = paragraphObjectPath(key);
  const head = await read(store, path, 0, HEAD_BYTES);
  if (head === null) return null;
  const headerBytes = new DataView(head.bytes.buffer, head.bytes.byteOffset).getUint32(0, true);
  const offset = 4 + headerBytes;
  const bytes = offset <= head.bytes.byteLength ? head.bytes : (await read(store, path, 0, offset))?.bytes;
  if (!bytes || offset > bytes.byteLength) throw new Error(`paragraph ${path}: its header is cut short`);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, offset))) as Header;
  const length = (head.size - offset) >> 1;
  const whole = bytes.byteLength === head.size;
  return {
    start: header.start,
    words: header.words.map(([text, start, end]) => ({ text, start, end })),
    length,
    piece: { object: path, offset, length: length * 2 },
    async samples() {
      const tail = whole ? bytes.subarray(offset) : (await read(store, path, offset, length * 2))?.bytes;
      if (!tail || tail.byteLength !== length * 2) throw new Error(`paragraph ${path}: its samples are gone or cut short`);
      // The header is padded to an even length, so the samples start on a 2-byte boundary: a view, no copy.
      return new Int16Array(tail.buffer, tail.byteOffset, length);
    },
  };
}

/** `length` bytes of the object at `path` from `offset` (fewer at its end) and its whole size; null when it is missing. */
async function read(store: RenderStoreRpc, path: string, offset: number, length: number): Promise<{ bytes: Uint8Array; size: number } | null> {
  const res = await store.fetch(new Request(renderStoreObjectUrl(path), { headers: { range: `bytes=${offset}-${offset + length - 1}` } }));
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`paragraph ${path}: the render store answered ${res.status}`);
  const size = Number(res.headers.get("content-range")?.split("/")[1] ?? res.headers.get("content-length"));
  return { bytes: new Uint8Array(await res.arrayBuffer()), size };
}

/** A paragraph voiced by this render, as it lays it: its piece is where storeParagraph puts its samples. */
export function voicedParagraph(key: string, voiced: VoicedPassage): LaidParagraph {
  const offset = 4 + headerOf(voiced).byteLength;
  const length = voiced.samples.length;
  return {
    start: voiced.start,
    words: voiced.words,
    length,
    piece: { object: paragraphObjectPath(key), offset, length: length * 2 },
    samples: async () => voiced.samples,
  };
}

/** Stores a voiced paragraph under `key`, the master's own bytes behind its header. */
export async function storeParagraph(store: RenderStoreRpc, key: string, voiced: VoicedPassage): Promise<void> {
  const head = headerOf(voiced);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, head.byteLength, true);
  await putParts(store, paragraphObjectPath(key), [length, head, int16LeBytes(voiced.samples)]);
}

/** The header's bytes, padded with a space to an even length so that the samples behind it are aligned. */
function headerOf(voiced: VoicedPassage): Uint8Array {
  const header: Header = { start: voiced.start, words: voiced.words.map((w) => [w.text, w.start, w.end]) };
  const json = JSON.stringify(header);
  const bytes = new TextEncoder().encode(json);
  return bytes.byteLength % 2 ? new TextEncoder().encode(`${json} `) : bytes;
}
