// A voiced paragraph is stored under its own content address (cache-key.ts paragraphKey), so that
// a render of an edited article voices only the paragraphs whose text, voice or pronunciations
// changed (docs/narration.md "Audio by the paragraph"). One object holds all of it, so it is
// written whole or not at all and needs no row of its own: a 4-byte little-endian header length,
// the header (JSON: where its speech starts and its words), then the 16-bit little-endian master.
import type { RenderStoreRpc } from "../../kernel/render-contract";
import { TtlCache } from "../../core/ttl-cache";
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
  const held = paths.map((path) => recentHeads.get(path, RECENT_HEADS) ?? null);
  const unread = paths.flatMap((path, i) => (held[i] ? [] : [path]));
  const heads = await readObjects(
    store,
    unread.map((path) => ({ path, range: { offset: 0, length: HEAD_BYTES } })),
  );
  const read = await Promise.all(
    heads.map(async (head, n) => {
      if (!head) return null;
      const path = unread[n];
      let { bytes } = head;
      const headerBytes = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
      if (4 + headerBytes > bytes.byteLength) bytes = (await readRange(store, path, 0, 4 + headerBytes))!.bytes;
      const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerBytes))) as Header;
      // The header is padded to an even length, so the samples start on a 2-byte boundary. Not held:
      // its age is unknown, and the lifecycle rule may delete it before its samples are next wanted.
      return laid(path, header, 4 + headerBytes, (head.size - 4 - headerBytes) / 2);
    }),
  );
  return held.map((head) => head ?? read.shift() ?? null);
}

/**
 * Paragraph heads this isolate stored lately, by path: an edit comes soon after its article's first
 * render, mostly to the same isolate, and its twenty heads (16 KB each) were read back before its
 * changed paragraph could be voiced; now only the one it cannot know is. A path's bytes never change
 * (the paragraph's content address is its path), and an R2 lifecycle rule deletes a paragraph 30 days
 * after it was written (docs/deploy.md, step 3): a head is held only from its own write, for an hour,
 * so its samples are still there when a render reads them. A head read from the store is not held,
 * since it may be a month old. A head is a few kilobytes (its words), so they are bounded by count;
 * the TTL ages them out well before the rule.
 */
const recentHeads = new TtlCache<StoredParagraph>();
const RECENT_HEADS = { ttlSeconds: 3600, capacity: 2048 };

/** Forgets every head held (the test setup and bench/engine-worker, which start from empty storage). */
export function forgetParagraphHeads(): void {
  recentHeads.clear();
}

/** The head of the paragraph stored at `path`, its samples `offset` bytes in. */
function laid(path: string, header: Header, offset: number, length: number): StoredParagraph {
  return { samples: { path, offset, length }, start: header.start, words: header.words.map(([text, start, end]) => ({ text, start, end })) };
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
  const path = paragraphObjectPath(key);
  await putParts(store, path, [length, head, int16LeBytes(voiced.samples)]);
  // Held once stored, and the write restarts the lifecycle rule's 30 days: a head held is readable.
  recentHeads.set(path, laid(path, header, 4 + head.byteLength, voiced.samples.length), RECENT_HEADS);
}
