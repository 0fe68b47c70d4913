import { eq } from "drizzle-orm";
import { audioObjects, database } from "../../db";
import { encodeMp3 } from "../engine/mp3";
import { encodeOggOpus } from "../engine/opus";
import { int16LeBytes, pcmDuration, type Pcm16 } from "../engine/pcm";
import { wavFromInt16 } from "../engine/wav";
import { AUDIO_CONTENT_TYPES, audioObjectPath, MASTER_SAMPLE_RATE, masterObjectPath } from "../objects";
import type { LazyFormat } from "../render-contract";

type Storage = Pick<Env, "DB" | "AUDIO">;

/** What a stored render is: its provider, voice and real duration. */
export interface StoredRender {
  key: string;
  provider: string;
  voice: string;
  durationSeconds: number;
}

/**
 * Writes a new render: the private master (for Opus and WAV later), the canonical MP3, and then the
 * audio_objects row. The row goes last, so a row always means the objects exist.
 */
export async function storeRender(env: Storage, render: Omit<StoredRender, "durationSeconds">, pcm: Pcm16): Promise<StoredRender> {
  const mp3 = await encodeMp3(pcm);
  await Promise.all([
    // The master's own bytes, not a copy: a long article's master is the largest thing in the isolate.
    env.AUDIO.put(masterObjectPath(render.key), int16LeBytes(pcm.samples)),
    env.AUDIO.put(audioObjectPath(render.key, "mp3"), mp3, { httpMetadata: { contentType: AUDIO_CONTENT_TYPES.mp3 } }),
  ]);
  const durationSeconds = pcmDuration(pcm);
  await database(env)
    .insert(audioObjects)
    .values({ ...render, durationSeconds, mp3Bytes: mp3.byteLength })
    .onConflictDoNothing();
  return { ...render, durationSeconds };
}

/**
 * Builds `format` for `key` from the master on first request, stores it and records its size; later
 * calls only read the size. Encoding is deterministic (the Ogg serial comes from the key), so two
 * concurrent first requests write the same bytes. Null when the key is unknown.
 */
export async function encodeStored(env: Storage, key: string, format: LazyFormat): Promise<{ bytes: number } | null> {
  const db = database(env);
  const row = await db.select().from(audioObjects).where(eq(audioObjects.key, key)).get();
  if (!row) return null;
  const known = format === "opus" ? row.opusBytes : row.wavBytes;
  if (known !== null) return { bytes: known };
  const master = await env.AUDIO.get(masterObjectPath(key));
  if (!master) return null;
  const pcm16 = await master.arrayBuffer();
  const bytes =
    format === "wav"
      ? wavFromInt16(new Uint8Array(pcm16), MASTER_SAMPLE_RATE)
      : await encodeOggOpus(new Int16Array(pcm16), MASTER_SAMPLE_RATE, parseInt(key.slice(0, 8), 16));
  await env.AUDIO.put(audioObjectPath(key, format), bytes, { httpMetadata: { contentType: AUDIO_CONTENT_TYPES[format] } });
  await db
    .update(audioObjects)
    .set(format === "opus" ? { opusBytes: bytes.byteLength } : { wavBytes: bytes.byteLength })
    .where(eq(audioObjects.key, key));
  return { bytes: bytes.byteLength };
}
