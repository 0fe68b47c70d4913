// A paragraph's encoded unit (its MP3 frames and Opus packets: engine/units.ts) is stored beside its
// PCM (paragraph-cache.ts), so that a render which reuses the paragraph lays its frames as they are
// instead of encoding them again: a one-paragraph edit encodes one paragraph (docs/narration.md
// "Encoded by the paragraph"). A unit is the paragraph with the pause before it, so its address is
// the paragraph's key and that pause's length. One object holds both encodings, so it is written
// whole or not at all and needs no row: a 4-byte little-endian MP3 length, the MP3 frames, then each
// Opus packet behind its 2-byte little-endian length (a packet is at most 1,275 bytes, RFC 6716).
import type { RenderStoreRpc } from "../../kernel/render-contract";
import { readObjects } from "./objects";

/** A unit's encodings, laid by the render writer exactly as if it had just encoded them (store.ts). */
export interface EncodedUnit {
  mp3: Uint8Array;
  opus: Uint8Array[];
}

/**
 * The encoders' settings the stored bytes depend on (engine/mp3.ts 64 kbit/s CBR, engine/opus.ts 32
 * kbit/s at 24 kHz): a change to either must change this, so no unit made the old way is laid.
 */
const UNIT_FORMAT = "mp3-64-opus-32";

/** R2 path of the unit of paragraph `key` after a pause of `gap` samples. Never served. */
export const unitObjectPath = (key: string, gap: number) => `units/${UNIT_FORMAT}/${key}.${gap}.bin`;

/** Bytes before a unit's MP3 frames in its object: their length. */
const MP3_AT = 4;

/** Where the MP3 frames of `unit`, stored at `path`, lie in its object (RenderStoreRpc.composeObject). */
export const unitMp3Piece = (path: string, unit: EncodedUnit) => ({ path, range: { offset: MP3_AT, length: unit.mp3.byteLength } });

/**
 * The stored units at `paths`, null for one never encoded: those this isolate holds (rememberUnit), and
 * the others read in as few calls as their bytes allow.
 */
export async function loadUnits(store: RenderStoreRpc, paths: string[]): Promise<(EncodedUnit | null)[]> {
  const units = paths.map((path) => recall(path));
  const unread = paths.flatMap((_, i) => (units[i] ? [] : [i]));
  const read = await readObjects(
    store,
    unread.map((i) => ({ path: paths[i] })),
  );
  for (const [n, i] of unread.entries()) {
    const bytes = read[n]?.bytes;
    if (bytes) units[i] = rememberUnit(paths[i], decodeUnit(bytes));
  }
  return units;
}

/**
 * Units this isolate encoded or read lately, by path, the least recently used dropped past
 * RECENT_UNIT_BYTES: an edit comes soon after its article's first render, mostly to the same isolate,
 * and reading its twenty units back (5 MB) took the render's thread 70 to 140 ms while it voiced the
 * changed paragraph (bench/results.md "Issue 44: units held for the edit"). A path's bytes never change
 * (the paragraph's content address and the pause are its address), so a unit held is the one stored; one
 * whose write failed is laid all the same, and its MP3 frames are then sent rather than composed from
 * the store (store.ts putMp3). Bounded by bytes, not entries as core/ttl-cache.ts is: a unit is 12 KB a
 * second of its paragraph, whatever the paragraph's length.
 */
const recentUnits = new Map<string, EncodedUnit>();
let recentBytes = 0;
/** About eleven minutes of units (12 KB a second), beside a render's own memory (docs/narration.md "Memory and long articles"). */
const RECENT_UNIT_BYTES = 8 << 20;

const unitSize = (unit: EncodedUnit) => unit.opus.reduce((n, packet) => n + packet.byteLength, unit.mp3.byteLength);

/** Holds `unit`, the encodings stored (or being stored) at `path`, for later renders of this isolate; returns it. */
export function rememberUnit(path: string, unit: EncodedUnit): EncodedUnit {
  forget(path);
  recentUnits.set(path, unit);
  recentBytes += unitSize(unit);
  for (const [oldest] of recentUnits) {
    if (recentBytes <= RECENT_UNIT_BYTES) break;
    forget(oldest);
  }
  return unit;
}

function forget(path: string): void {
  const unit = recentUnits.get(path);
  if (!unit) return;
  recentUnits.delete(path);
  recentBytes -= unitSize(unit);
}

/** The unit held for `path`, now the most recently used; null when none is. */
function recall(path: string): EncodedUnit | null {
  const unit = recentUnits.get(path);
  return unit ? rememberUnit(path, unit) : null;
}

function decodeUnit(bytes: Uint8Array): EncodedUnit {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const mp3Length = view.getUint32(0, true);
  const opus: Uint8Array[] = [];
  for (let at = MP3_AT + mp3Length; at < bytes.byteLength; ) {
    const length = view.getUint16(at, true);
    opus.push(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return { mp3: bytes.subarray(MP3_AT, MP3_AT + mp3Length), opus };
}

/** The object of a unit's encodings, as parts for the render writer to store (store.ts putParts). */
export function unitBytes(unit: EncodedUnit): Uint8Array[] {
  const head = new Uint8Array(MP3_AT);
  new DataView(head.buffer).setUint32(0, unit.mp3.byteLength, true);
  const packets = unit.opus.flatMap((packet) => {
    const length = new Uint8Array(2);
    new DataView(length.buffer).setUint16(0, packet.byteLength, true);
    return [length, packet];
  });
  return [head, unit.mp3, ...packets];
}
