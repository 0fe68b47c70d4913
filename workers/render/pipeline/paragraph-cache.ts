// A voiced paragraph is stored under its own content address (cache-key.ts paragraphKey), so that
// a render of an edited article voices only the paragraphs whose text, voice or pronunciations
// changed (docs/narration.md "Audio by the paragraph"). One object holds all of it, so it is
// written whole or not at all and needs no row of its own: a 4-byte little-endian header length,
// the header (JSON: where its speech starts and its words), then the 16-bit little-endian master.
import type { RenderStoreRpc } from "../../kernel/render-contract";
import { int16LeBytes } from "../engine/pcm";
import { putParts, readObjects, readRange } from "./objects";
import type { VoicedPassage } from "./synthesize";

/** R2 path of the stored paragraph `key`. Never served; shared by every article that has the paragraph. */
export const paragraphObjectPath = (key: string) => `paragraphs/${key}.pcm`;

interface Header {
  start: number | null;
  /** [text, start, end] in samples of the paragraph's master. */
  words: [string, number, number][];
}

/**
 * A stored paragraph's samples, left where they are until they are needed: by the master's write,
 * or by an encoder when the paragraph's unit is not stored (store.ts). `offset` is in bytes from the
 * object's start, `length` in samples.
 */
export interface StoredSamples {
  path: string;
  offset: number;
  length: number;
}

/** A stored paragraph as a render lays it: its header read, its samples in the store. */
export type StoredParagraph = Omit<VoicedPassage, "samples"> & { samples: StoredSamples };

/** Bytes read first from a stored paragraph: its header (a few hundred bytes a sentence) with room to spare. */
const HEAD_BYTES = 16_384;

/**
 * The stored paragraphs `keys` without their samples, null for one not voiced (by this provider,
 * voice and pronunciations), read in one call. An edit lays twenty paragraphs from their stored
 * units, and reading their samples (2 bytes a sample, 14 MB for five minutes) was most of its wait;
 * they are read when the master is written instead (bench/results.md "Issue 44: what the edit and
 * the demo waited on").
 */
export async function loadParagraphHeads(store: RenderStoreRpc, keys: string[]): Promise<(StoredParagraph | null)[]> {
  const paths = keys.map(paragraphObjectPath);
  const heads = await readObjects(
    store,
    paths.map((path) => ({ path, range: { offset: 0, length: HEAD_BYTES } })),
  );
  return Promise.all(
    heads.map(async (head, i) => {
      if (!head) return null;
      let { bytes } = head;
      const headerBytes = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
      if (4 + headerBytes > bytes.byteLength) bytes = (await readRange(store, paths[i], 0, 4 + headerBytes))!.bytes;
      const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerBytes))) as Header;
      // The header is padded to an even length, so the samples start on a 2-byte boundary.
      const offset = 4 + headerBytes;
      return {
        samples: { path: paths[i], offset, length: (head.size - offset) / 2 },
        start: header.start,
        words: header.words.map(([text, start, end]) => ({ text, start, end })),
      };
    }),
  );
}

/** The samples of a stored paragraph (loadParagraphHeads). */
export async function readSamples(store: RenderStoreRpc, samples: StoredSamples): Promise<Int16Array> {
  if (samples.length === 0) return new Int16Array(0);
  const read = await readRange(store, samples.path, samples.offset, samples.length * 2);
  if (!read) throw new Error(`paragraph ${samples.path}: gone before its samples were read`);
  return new Int16Array(read.bytes.buffer, read.bytes.byteOffset, samples.length);
}

/** Stores a voiced paragraph under `key`, the master's own bytes behind its header. */
export async function storeParagraph(store: RenderStoreRpc, key: string, voiced: VoicedPassage): Promise<void> {
  const header: Header = { start: voiced.start, words: voiced.words.map((w) => [w.text, w.start, w.end]) };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const head = json.byteLength % 2 ? new TextEncoder().encode(`${JSON.stringify(header)} `) : json;
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, head.byteLength, true);
  await putParts(store, paragraphObjectPath(key), [length, head, int16LeBytes(voiced.samples)]);
}
