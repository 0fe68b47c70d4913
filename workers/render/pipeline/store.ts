import { eq } from "drizzle-orm";
import { audioObjects, database } from "../../db/index";
import { mp3Stream } from "../engine/mp3";
import { oggOpusStream } from "../engine/opus";
import { int16LeBytes, type Pcm16 } from "../engine/pcm";
import { wavHeader } from "../engine/wav";
import { AUDIO_CONTENT_TYPES, audioObjectPath, MASTER_SAMPLE_RATE, masterObjectPaths } from "../../kernel/audio-objects";
import type { LazyFormat } from "../../kernel/render-contract";
import type { AudioFormat } from "../../kernel/audio-urls";
import { timed, type RenderPhases } from "../phases";

type Storage = Pick<Env, "DB" | "AUDIO">;

/** What a stored render is: its provider, voice and real duration. */
export interface StoredRender {
  key: string;
  provider: string;
  voice: string;
  durationSeconds: number;
}

/** Takes a render's segments in order (each a loudness-normalised master), then writes the rest. */
export interface RenderWriter {
  /** Stores the segment's master and feeds it to the MP3 and Opus encoders; the caller may drop it afterwards. */
  add(pcm: Pcm16): Promise<void>;
  /**
   * Stores the MP3 and the Opus, then the audio_objects row with where each paragraph starts (samples
   * from the start of the master): a row always means every object exists.
   */
  finish(paragraphStarts: number[]): Promise<StoredRender>;
  /** Frees the encoders of a render given up (a provider failed); nothing is written. */
  discard(): void;
}

/** The Ogg serial of a key's Opus: derived from the key, so every build of it writes the same bytes. */
const opusSerial = (key: string) => parseInt(key.slice(0, 8), 16);

/**
 * Writes a new render of `segments` segments. One LAME encoder and one Opus encoder take every
 * segment, so neither file has encoder padding where segments meet; only their bytes (8 and 4 KB a
 * second) are kept until the end. The Opus is built now rather than on first request so that feeds
 * list its exact size from the start: podcast parsers drop an alternate enclosure without a length.
 */
export async function renderWriter(
  env: Storage,
  render: Omit<StoredRender, "durationSeconds">,
  segments: number,
  phases?: RenderPhases,
): Promise<RenderWriter> {
  const mp3 = await mp3Stream(MASTER_SAMPLE_RATE);
  const opus = await oggOpusStream(MASTER_SAMPLE_RATE, opusSerial(render.key));
  const masters = masterObjectPaths(render.key, segments);
  const parts: Uint8Array[] = [];
  const pages: Uint8Array[] = [];
  let added = 0;
  let samples = 0;
  let open = true;
  const closeOpus = () => {
    if (open) pages.push(...opus.finish());
    open = false;
  };
  return {
    async add(pcm) {
      if (added === segments) throw new Error(`render ${render.key} has only ${segments} segments`);
      await timed(phases, "encodingMs", () => {
        parts.push(...mp3.encode(pcm.samples));
        pages.push(...opus.encode(pcm.samples));
      });
      // The master's own bytes, not a copy: a segment's master is the largest thing in the isolate.
      await env.AUDIO.put(masters[added++], int16LeBytes(pcm.samples));
      samples += pcm.samples.length;
    },
    async finish(paragraphStarts) {
      if (added !== segments) throw new Error(`render ${render.key} got ${added} of ${segments} segments`);
      await timed(phases, "encodingMs", () => {
        parts.push(mp3.finish());
        closeOpus();
      });
      const [mp3Bytes, opusBytes] = await Promise.all([putParts(env, render.key, "mp3", parts), putParts(env, render.key, "opus", pages)]);
      const durationSeconds = samples / MASTER_SAMPLE_RATE;
      await database(env)
        .insert(audioObjects)
        .values({ ...render, durationSeconds, mp3Bytes, opusBytes, segments, paragraphStarts })
        .onConflictDoNothing();
      return { ...render, durationSeconds };
    },
    discard: closeOpus,
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
export async function encodeStored(env: Storage, key: string, format: LazyFormat): Promise<{ bytes: number } | null> {
  const db = database(env);
  const row = await db.select().from(audioObjects).where(eq(audioObjects.key, key)).get();
  if (!row) return null;
  const known = format === "opus" ? row.opusBytes : row.wavBytes;
  if (known !== null) return { bytes: known };
  const paths = masterObjectPaths(key, row.segments);
  const heads = await Promise.all(paths.map((p) => env.AUDIO.head(p)));
  if (heads.some((h) => !h)) return null;

  let bytes: number;
  if (format === "wav") {
    const dataBytes = heads.reduce((n, h) => n + h!.size, 0);
    bytes = await putStream(env, key, "wav", 44 + dataBytes, async (write) => {
      await write(wavHeader(dataBytes, MASTER_SAMPLE_RATE));
      for (const path of paths) await write(await masterBytes(env, path));
    });
  } else {
    const opus = await oggOpusStream(MASTER_SAMPLE_RATE, opusSerial(key));
    const pages: Uint8Array[] = [];
    try {
      for (const path of paths) {
        const master = await masterBytes(env, path);
        pages.push(...opus.encode(new Int16Array(master.buffer, master.byteOffset, master.byteLength >> 1)));
      }
    } finally {
      pages.push(...opus.finish()); // also frees the encoder when a read failed
    }
    bytes = await putParts(env, key, "opus", pages);
  }
  await db
    .update(audioObjects)
    .set(format === "opus" ? { opusBytes: bytes } : { wavBytes: bytes })
    .where(eq(audioObjects.key, key));
  return { bytes };
}

async function masterBytes(env: Storage, path: string): Promise<Uint8Array> {
  const object = await env.AUDIO.get(path);
  if (!object) throw new Error(`master ${path} is missing`);
  return new Uint8Array(await object.arrayBuffer());
}

/** Stores `parts` as one object without joining them into a second copy; returns its size. */
function putParts(env: Storage, key: string, format: AudioFormat, parts: Uint8Array[]): Promise<number> {
  const length = parts.reduce((n, p) => n + p.byteLength, 0);
  return putStream(env, key, format, length, async (write) => {
    for (const part of parts) await write(part);
  });
}

/**
 * Stores audio/<key>.<format> of `length` bytes written piece by piece: R2 takes a stream whose length is known
 * up front (FixedLengthStream), so the whole file is never in memory at once.
 */
async function putStream(
  env: Storage,
  key: string,
  format: AudioFormat,
  length: number,
  fill: (write: (chunk: Uint8Array) => Promise<void>) => Promise<void>,
): Promise<number> {
  const { readable, writable } = new FixedLengthStream(length);
  const writer = writable.getWriter();
  const written = (async () => {
    await fill((chunk) => writer.write(chunk));
    await writer.close();
  })();
  written.catch((err) => writer.abort(err)); // a failed read must not leave R2 waiting for bytes
  await Promise.all([env.AUDIO.put(audioObjectPath(key, format), readable, { httpMetadata: { contentType: AUDIO_CONTENT_TYPES[format] } }), written]);
  return length;
}
