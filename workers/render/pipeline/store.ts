import { mp3Units } from "../engine/mp3";
import { oggOpusStream, opusUnits } from "../engine/opus";
import { int16LeBytes } from "../engine/pcm";
import { wavHeader } from "../engine/wav";
import {
  AUDIO_CONTENT_TYPES,
  audioObjectPath,
  C2PA_CONTENT_TYPE,
  c2paSidecarPath,
  MASTER_SAMPLE_RATE,
  masterObjectPaths,
  wordTimingsPath,
} from "../../kernel/audio-objects";
import { type LazyFormat, type ObjectPiece, type RenderStoreRpc, type StoredAudio, WHOLE_OBJECT_BYTES } from "../../kernel/render-contract";
import type { AudioFormat } from "../../kernel/public-urls";
import { timed, type RenderPhases } from "../phases";
import { timingsJson } from "../../kernel/word-timings";
import type { RenderedWord } from "./timeline";
import { mp3Tag, opusComments, type AudioAbout } from "./audio-tags";
import { c2paCredentials, MAX_SIGNED_BYTES, opusManifest, signedMp3Tag, signWav } from "./c2pa";
import { concatBytes } from "../engine/pcm";
import { rememberUnit, unitBytes, unitMp3Piece, type EncodedUnit } from "./unit-cache";
import { readSamples } from "./paragraph-cache";
import { putParts, putStream, readObject } from "./objects";
import type { MasterPart } from "./segment";
import { loggableError } from "../../core/errors";
import { sha256HexOf } from "../../core/crypto";

/** What a stored render is: its provider and voice, what was asked for, and its real duration. */
export type StoredRender = Pick<StoredAudio, "key" | "provider" | "voice" | "requestedVoice" | "fallback" | "lexiconDigest" | "durationSeconds">;

/**
 * Who hears a render's MP3 as it is made (render-stream.ts): its ID3 tag, then its frames in order,
 * the same bytes the stored file holds after its tag.
 */
export interface Listener {
  hear(bytes: Uint8Array): void;
  /** The render was given up (a provider failed and the next one starts over): what was heard stops here. */
  drop(): void;
}

/** Takes a render's segments in order (each a loudness-normalised master), then writes the rest. */
export interface RenderWriter {
  /**
   * Encodes the next unit of the current segment's master (a paragraph, the pause before it and
   * the silence that ends it on a frame: engine/units.ts) as MP3 frames and Opus packets of its own,
   * and hands the MP3 frames to the listener. With `unit`, its encodings are taken as stored when
   * found there, else stored once made (unit-cache.ts). A stored paragraph's samples are read when
   * the unit is encoded, or else when the master is written. True when it encoded the unit.
   */
  add(parts: MasterPart[], unit?: StoredUnit): Promise<boolean>;
  /**
   * Starts storing the current segment's master, the parts added since the last one, once the
   * previous segment's is stored; `finish` waits for it.
   */
  endSegment(): Promise<void>;
  /**
   * Stores the MP3, the Opus and the word timings, then the audio_objects row with where each
   * paragraph starts (samples from the start of the master) and the watermark ids its paragraphs
   * carry: a row always means every public object exists. The last master is stored by then too,
   * unless the writer was given `later` (renderWriter).
   */
  finish(paragraphStarts: number[], words?: RenderedWord[], markIds?: string[]): Promise<StoredRender>;
  /** Gives up a render (a provider failed): nothing is written, and the listener stops hearing it. */
  discard(): void;
}

/** Takes work a render's result does not wait for, and keeps the isolate until it settles (ctx.waitUntil). */
export type Later = (work: Promise<unknown>) => void;

/** Where a unit's encodings are stored (unit-cache.ts unitObjectPath), and what was found there (null: nothing). */
export interface StoredUnit {
  path: string;
  found: EncodedUnit | null;
}

/** The Ogg serial of a key's Opus: derived from the key, so every build of it writes the same bytes. */
const opusSerial = (key: string) => parseInt(key.slice(0, 8), 16);

/**
 * Writes a new render of `segments` segments. Each unit is encoded on its own, as MP3 frames and
 * Opus packets that decode to exactly its samples (engine/units.ts), and units are laid end to end:
 * no gap and no encoder padding where they meet, and only their bytes (8 and 4 KB a second) are kept
 * until the end. The Opus is built now rather than on first request so that feeds list its exact
 * size from the start: podcast parsers drop an alternate enclosure without a length.
 * Both say what they are (audio-tags.ts): the MP3 starts with its ID3 tag, the Opus's comment
 * header carries the same, with the article's `title` and `publisher` where the render knows them.
 * With signing credentials configured (c2pa.ts), the MP3 also carries a C2PA manifest, and the Opus has
 * one beside it (audio/<key>.c2pa).
 * With `later`, the last master is written after the audio's row is recorded, and that write and the
 * encoded units' are handed to `later` rather than awaited by `finish`: the master is private, read
 * only to build a WAV on first request (encodeStored waits for it), and the units are a cache, while
 * writing them took about half of a one-paragraph edit's time (bench/results.md "Issue 44: what the
 * edit and the demo waited on"). `later` must keep the isolate until the writes settle.
 */
export async function renderWriter(
  store: RenderStoreRpc,
  render: Omit<StoredRender, "durationSeconds">,
  segments: number,
  {
    phases,
    names = {},
    listener,
    later,
  }: { phases?: RenderPhases; names?: Pick<AudioAbout, "title" | "publisher" | "url">; listener?: Listener; later?: Later } = {},
): Promise<RenderWriter> {
  const about: AudioAbout = { ...names, provider: render.provider, voice: render.voice };
  const mp3 = await mp3Units(MASTER_SAMPLE_RATE);
  const opus = await opusUnits(MASTER_SAMPLE_RATE);
  const ogg = opus.pager(opusSerial(render.key), opusComments(about));
  const masters = masterObjectPaths(render.key, segments);
  const parts: Uint8Array[] = [];
  // The same MP3 as the store can compose it: a stored unit's frames as a range of its object (putMp3).
  const pieces: ObjectPiece[] = [];
  const pages: Uint8Array[] = [];
  const mp3Out = (bytes: Uint8Array, piece: ObjectPiece = bytes) => {
    parts.push(bytes);
    pieces.push(piece);
    listener?.hear(bytes);
  };
  mp3Out(mp3Tag(about));
  // The Opus runs a unit behind the MP3: a unit's packets are encoded after the next encoded unit's
  // MP3 frames, and the last unit's in `finish`, while the MP3 is stored. Laid in order with the
  // stored units' packets (`ogg.add`), since the pages number them.
  const opusBehind: (() => Promise<void>)[] = [];
  const catchUpOpus = async () => {
    for (const next of opusBehind.splice(0)) await next();
  };
  let master: MasterPart[] = [];
  let added = 0;
  let samples = 0;
  const unitWrites: Promise<number>[] = [];
  let masterWrite: Promise<number> = Promise.resolve(0);
  let lastMaster: (() => Promise<number>) | null = null;
  return {
    async add(unit, stored) {
      if (added === segments) throw new Error(`render ${render.key} has only ${segments} segments`);
      if (unit.length === 0) return false;
      master.push(...unit);
      if (stored?.found) {
        const { found } = stored;
        mp3Out(found.mp3, unitMp3Piece(stored.path, found));
        opusBehind.push(async () => {
          pages.push(...ogg.add(found.opus));
        });
        return false;
      }
      const pcm = await Promise.all(unit.map((part) => samplesOf(store, part)));
      // MP3 first: its frames are on their way to a listener while the Opus is encoded.
      const frames = await timed(phases, "encodingMs", () => mp3(pcm));
      mp3Out(frames);
      await catchUpOpus();
      opusBehind.push(async () => {
        const packets = await timed(phases, "encodingMs", () => opus.unit(pcm));
        pages.push(...ogg.add(packets));
        if (stored) {
          const write = putParts(store, stored.path, unitBytes(rememberUnit(stored.path, { mp3: frames, opus: packets })));
          write.catch(() => {}); // awaited by finish; a discarded render leaves it unawaited
          unitWrites.push(write);
        }
      });
      return true;
    },
    async endSegment() {
      // A master is written while the next segment is voiced, or while the render finishes; the one
      // before it is out of the isolate first, so at most two segments' audio are held at once.
      await masterWrite;
      // The parts' own bytes, not a copy: a segment's master is the largest thing in the isolate. A
      // stored paragraph's samples are read as the write reaches them.
      const parts = master;
      const path = masters[added++];
      const length = parts.reduce((n, part) => n + 2 * part.length, 0);
      const write = () =>
        putStream(store, path, length, undefined, async (write) => {
          for (const part of parts) await write(int16LeBytes(await samplesOf(store, part)));
        });
      samples += length / 2;
      master = [];
      // With `later`, the last master waits for the public audio to be stored: written beside it, it
      // took the same local R2 and the job waited as long as before.
      if (later && added === segments) lastMaster = write;
      else {
        masterWrite = write();
        masterWrite.catch(() => {}); // awaited by the next endSegment or by finish; a discarded render leaves it unawaited
      }
    },
    async finish(paragraphStarts, words = [], markIds = []) {
      if (added !== segments) throw new Error(`render ${render.key} got ${added} of ${segments} segments`);
      const timings = putParts(store, wordTimingsPath(render.key), [new TextEncoder().encode(timingsJson(words))], "application/json");
      timings.catch(() => {}); // awaited below, unless the signing fails first
      // Each file crosses to the store once it is signed: the MP3 while its last unit's Opus is
      // encoded, the Opus while the MP3's bytes travel.
      const mp3Tag = await signedMp3Tag(parts.slice(1), about);
      const tagged = <T>(list: T[]) => (mp3Tag ? [mp3Tag, ...list.slice(1)] : list);
      const mp3Stored = putMp3(store, render.key, tagged<Uint8Array>(parts), tagged<ObjectPiece>(pieces));
      mp3Stored.catch(() => {}); // awaited below, unless the Opus fails first
      await catchUpOpus();
      await timed(phases, "encodingMs", async () => pages.push(...(await ogg.end())));
      // The units are a cache for later renders (unit-cache.ts): one not stored is encoded again when next needed.
      const units = Promise.all(unitWrites);
      if (later) later(units.catch((err: unknown) => console.warn(`render ${render.key}: an encoded unit was not stored: ${loggableError(err)}`)));
      const [mp3Bytes, opusBytes] = await Promise.all([
        mp3Stored,
        putOpus(store, render.key, pages, about),
        timings,
        later ? null : masterWrite,
        later ? null : units,
      ]);
      const durationSeconds = samples / MASTER_SAMPLE_RATE;
      await store.recordAudio({ ...render, durationSeconds, mp3Bytes, opusBytes, wavBytes: null, segments, paragraphStarts }, markIds);
      if (later && lastMaster)
        later(lastMaster().catch((err: unknown) => console.error(`render ${render.key}: its master was not stored: ${loggableError(err)}`)));
      return { ...render, durationSeconds };
    },
    discard() {
      opusBehind.length = 0;
      listener?.drop();
    },
  };
}

/**
 * Builds `format` for `key` from the master segments on first request, stores it and records its
 * size; later calls only read the size. Opus is built at render time; this builds it for audio
 * rendered before that. Segments are read one at a time: WAV streams them behind its
 * header into R2, and Opus runs one encoder across them and keeps only its pages (4 KB a second).
 * Encoding is deterministic (the Ogg serial comes from the key), so two concurrent first requests
 * write the same bytes. Null when the key is unknown.
 */
export async function encodeStored(store: RenderStoreRpc, key: string, format: LazyFormat): Promise<{ bytes: number } | null> {
  const [row] = await store.findAudio([key]);
  if (!row) return null;
  const known = format === "opus" ? row.opusBytes : row.wavBytes;
  if (known !== null) return { bytes: known };
  const paths = masterObjectPaths(key, row.segments);
  const sizes = await storedSizes(store, paths);
  if (sizes.some((size) => size === null)) return null;

  let bytes: number;
  const dataBytes = sizes.reduce((n: number, size) => n + size!, 0);
  if (format === "wav" && (await c2paCredentials()) && 44 + dataBytes <= MAX_SIGNED_BYTES) {
    // Signed (c2pa.ts), so built whole: C2PA hashes the file around the manifest it adds. The
    // render's title, publisher and address are not stored with the audio: the manifest names the
    // engine and voice.
    const parts = [wavHeader(dataBytes, MASTER_SAMPLE_RATE)];
    for (const path of paths) parts.push(await masterBytes(store, path));
    const whole = concatBytes(parts);
    bytes = await putAudio(store, key, "wav", [(await signWav(whole, { provider: row.provider, voice: row.voice })) ?? whole]);
  } else if (format === "wav") {
    bytes = await putStream(store, audioObjectPath(key, "wav"), 44 + dataBytes, AUDIO_CONTENT_TYPES.wav, async (write) => {
      await write(wavHeader(dataBytes, MASTER_SAMPLE_RATE));
      for (const path of paths) await write(await masterBytes(store, path));
    });
  } else {
    // The render's title and publisher are not stored with the audio: this Opus names the engine and voice.
    const opus = await oggOpusStream(MASTER_SAMPLE_RATE, opusSerial(key), opusComments({ provider: row.provider, voice: row.voice }));
    const pages: Uint8Array[] = [];
    try {
      for (const path of paths) {
        const master = await masterBytes(store, path);
        pages.push(...opus.encode(new Int16Array(master.buffer, master.byteOffset, master.byteLength >> 1)));
      }
    } finally {
      pages.push(...opus.finish()); // also frees the encoder when a read failed
    }
    bytes = await putOpus(store, key, pages, { provider: row.provider, voice: row.voice });
  }
  await store.recordEncoding(key, format, bytes);
  return { bytes };
}

/**
 * How long a lazy encoding waits for masters not stored yet, and how often it looks: a render's last
 * master may be stored just after its job is done (renderWriter `later`), a second or two at most.
 */
const MASTER_WAIT_MS = 15_000;
const MASTER_LOOK_MS = 100;

/** The sizes of the objects at `paths`, once all are stored or MASTER_WAIT_MS has passed (null: not stored). */
async function storedSizes(store: RenderStoreRpc, paths: string[]): Promise<(number | null)[]> {
  const until = Date.now() + MASTER_WAIT_MS;
  for (;;) {
    const sizes = await store.objectSizes(paths);
    if (!sizes.includes(null) || Date.now() >= until) return sizes;
    await scheduler.wait(MASTER_LOOK_MS);
  }
}

/** A master part's samples, read from the store when they are a stored paragraph's. */
function samplesOf(store: RenderStoreRpc, part: MasterPart): Int16Array | Promise<Int16Array> {
  return part instanceof Int16Array ? part : readSamples(store, part);
}

async function masterBytes(store: RenderStoreRpc, path: string): Promise<Uint8Array> {
  const bytes = await readObject(store, path);
  if (!bytes) throw new Error(`${path}: not stored`);
  return bytes;
}

/** Stores the Opus of `key` from `pages`, and its C2PA manifest beside it when credentials are configured (c2pa.ts); returns its size. */
async function putOpus(store: RenderStoreRpc, key: string, pages: Uint8Array[], about: AudioAbout): Promise<number> {
  const manifest = await opusManifest(pages, about);
  // Both before the audio_objects row (recorded by the caller): an Opus whose row exists always has its
  // manifest when signing is on.
  const [bytes] = await Promise.all([putAudio(store, key, "opus", pages), manifest && putParts(store, c2paSidecarPath(key), [manifest], C2PA_CONTENT_TYPE)]);
  return bytes;
}

/**
 * Stores the MP3 of `key`, `parts`; returns its size. The frames of stored units (`pieces` that are
 * ranges) are composed by the store from those units rather than sent again: an edit's MP3 is mostly
 * the paragraphs it reused, and its megabytes crossing to the store were a tenth of the edit's time
 * (bench/results.md "Issue 44: eSpeak's memory, reads in one call"). A render that reused no unit, or
 * whose MP3 is over what crosses whole, sends its bytes.
 */
async function putMp3(store: RenderStoreRpc, key: string, parts: Uint8Array[], pieces: ObjectPiece[]): Promise<number> {
  const size = parts.reduce((n, part) => n + part.byteLength, 0);
  if (size > WHOLE_OBJECT_BYTES || pieces.every((piece) => piece instanceof Uint8Array)) return putAudio(store, key, "mp3", parts);
  const composed = await store.composeObject(audioObjectPath(key, "mp3"), pieces, await sha256HexOf(parts), AUDIO_CONTENT_TYPES.mp3);
  if (typeof composed === "number") return composed;
  console.warn(`render ${key}: the store did not compose the MP3 (${composed.refused}); sending its bytes`);
  return putAudio(store, key, "mp3", parts);
}

/** Stores the public object of `key` in `format` from `parts`; returns its size. */
function putAudio(store: RenderStoreRpc, key: string, format: AudioFormat, parts: Uint8Array[]): Promise<number> {
  return putParts(store, audioObjectPath(key, format), parts, AUDIO_CONTENT_TYPES[format]);
}
