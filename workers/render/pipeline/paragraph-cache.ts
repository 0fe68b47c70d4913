// A voiced paragraph is stored under its own content address (cache-key.ts paragraphKey), so that
// a render of an edited article voices only the paragraphs whose text, voice or pronunciations
// changed (docs/narration.md "Audio by the paragraph"). One object holds all of it, so it is
// written whole or not at all and needs no row of its own: a 4-byte little-endian header length,
// the header (JSON: where its speech starts and its words), then the 16-bit little-endian master.
import { renderStoreObjectUrl, type RenderStoreRpc } from "../../kernel/render-contract";
import { int16LeBytes } from "../engine/pcm";
import { putParts } from "./store";
import type { VoicedPassage } from "./synthesize";

/** R2 path of the stored paragraph `key`. Never served; shared by every article that has the paragraph. */
export const paragraphObjectPath = (key: string) => `paragraphs/${key}.pcm`;

interface Header {
  start: number | null;
  /** [text, start, end] in samples of the paragraph's master. */
  words: [string, number, number][];
}

/** The stored paragraph `key`, or null when it has not been voiced (by this provider, voice and pronunciations). */
export async function loadParagraph(store: RenderStoreRpc, key: string): Promise<VoicedPassage | null> {
  const path = paragraphObjectPath(key);
  const res = await store.fetch(new Request(renderStoreObjectUrl(path)));
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`paragraph ${path}: the render store answered ${res.status}`);
  const buffer = await res.arrayBuffer();
  const headerBytes = new DataView(buffer).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, headerBytes))) as Header;
  // The header is padded to an even length, so the samples start on a 2-byte boundary: a view, no copy.
  const samples = new Int16Array(buffer, 4 + headerBytes);
  return { samples, start: header.start, words: header.words.map(([text, start, end]) => ({ text, start, end })) };
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
