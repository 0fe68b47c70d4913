import { eq } from "drizzle-orm";
import { audioObjects, database } from "../../db/index";
import { mp3Stream } from "../engine/mp3";
import { oggOpusStream } from "../engine/opus";
import { int16LeBytes, type Pcm16 } from "../engine/pcm";
import { wavHeader } from "../engine/wav";
import { AUDIO_CONTENT_TYPES, audioObjectPath, MASTER_SAMPLE_RATE, masterObjectPaths } from "../../kernel/audio-objects";
import type { LazyFormat } from "../../kernel/render-contract";
import type { AudioFormat } from "../../kernel/audio-urls";

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
  /** Stores the segment's master and feeds it to the MP3 encoder; the caller may drop it afterwards. */
  add(pcm: Pcm16): Promise<void>;
  /** Stores the MP3 and then the audio_objects row: a row always means every object exists. */
  finish(): Promise<StoredRender>;
}

/**
 * Writes a new render of `segments` segments. One LAME encoder takes every segment, so the MP3 has
 * no encoder padding where segments meet; only its bytes (8 KB a second) are kept until the end.
 */
export async function renderWriter(env: Storage, render: Omit<StoredRender, "durationSeconds">, segments: number): Promise<RenderWriter> {
  const mp3 = await mp3Stream(MASTER_SAMPLE_RATE);
  const masters = masterObjectPaths(render.key, segments);
  const parts: Uint8Array[] = [];
  let added = 0;
  let samples = 0;
  return {
    async add(pcm) {
      if (added === segments) throw new Error(`render ${render.key} has only ${segments} segments`);
      parts.push(...mp3.encode(pcm.samples));
      // The master's own bytes, not a copy: a segment's master is the largest thing in the isolate.
      await env.AUDIO.put(masters[added++], int16LeBytes(pcm.samples));
      samples += pcm.samples.length;
    },
    async finish() {
      if (added !== segments) throw new Error(`render ${render.key} got ${added} of ${segments} segments`);
      parts.push(mp3.finish());
      const mp3Bytes = await putParts(env, render.key, "mp3", parts);
      const durationSeconds = samples / MASTER_SAMPLE_RATE;
      await database(env)
        .insert(audioObjects)
        .values({ ...render, durationSeconds, mp3Bytes, segments })
        .onConflictDoNothing();
      return { ...render, durationSeconds };
    },
  };
}

/**
 * Builds `format` for `key` from the master segments on first request, stores it and records its
 * size; later calls only read the size. Segments are read one at a time: WAV streams them behind its
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
    const opus = await oggOpusStream(MASTER_SAMPLE_RATE, parseInt(key.slice(0, 8), 16));
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
