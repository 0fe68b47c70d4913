import { eq } from "drizzle-orm";
import { sha256Hex } from "../../core/crypto";
import { audioObjects, database } from "../../db";
import { audioObjectPath } from "../../kernel/audio-objects";
import { renderService } from "../../kernel/render-contract";
import { afterId3, firstAudioFrame, id3Without, joinable } from "./mp3-frames";

/**
 * The sponsor pre-roll of the free plan (issue 12): a short message rendered once by the same
 * pipeline as every article (so it has the same -16 LUFS loudness, sample rate and MP3 settings),
 * joined before an article's MP3 at a frame boundary, and stored as an object of its own, with its
 * exact size, under a key derived from both parts, so its bytes never change.
 */
export const SPONSOR_TEXT = "This narration is brought to you by Narration Plus. Listen without sponsor messages on the Plus or Pro plan.";

/** Bytes read from the head of each file: an ID3v2 tag (a C2PA manifest in it is about 12 KB) and the first two frames fit easily. */
const HEAD_BYTES = 64 * 1024;

/** The stitched object: its cache key (served as /v1/audio/{key}.mp3) and duration. */
export interface Stitched {
  key: string;
  durationSeconds: number;
}

async function head(env: Env, path: string): Promise<Uint8Array> {
  const obj = await env.AUDIO.get(path, { range: { offset: 0, length: HEAD_BYTES } });
  if (!obj) throw new Error(`audio object ${path} is missing`);
  return new Uint8Array(await obj.arrayBuffer());
}

/**
 * The pre-roll joined before the audio of `articleKey`, built on first request. Both files come
 * from the same LAME settings, so the pre-roll's audio frames followed by the article's (each
 * without its Info frame) are one valid stream; players take a CBR file's length from its size.
 */
export async function withPreroll(env: Env, articleKey: string): Promise<Stitched> {
  const db = database(env);
  const preroll = await renderService(env).render({ text: SPONSOR_TEXT });
  // v2: the joined file starts with the article's ID3 tag (v1 files carried none).
  const key = await sha256Hex(`preroll:v2:${preroll.key}:${articleKey}`);
  const known = await db.query.audioObjects.findFirst({ where: eq(audioObjects.key, key) });
  if (known) return { key, durationSeconds: known.durationSeconds };

  const article = await db.query.audioObjects.findFirst({ where: eq(audioObjects.key, articleKey) });
  if (!article) throw new Error(`no audio object ${articleKey}`);
  const [prerollFile, articleHead, articleSize] = await Promise.all([
    env.AUDIO.get(audioObjectPath(preroll.key, "mp3")).then(async (o) => (o ? new Uint8Array(await o.arrayBuffer()) : null)),
    head(env, audioObjectPath(articleKey, "mp3")),
    env.AUDIO.head(audioObjectPath(articleKey, "mp3")).then((o) => o?.size ?? null),
  ]);
  if (!prerollFile || articleSize === null) throw new Error("pre-roll or article audio is missing");
  const first = firstAudioFrame(prerollFile);
  const second = firstAudioFrame(articleHead);
  if (!joinable(first.header, second.header)) throw new Error("pre-roll and article MP3 settings differ");

  // The article's ID3 tag (its title, publisher, and that the voice is synthetic: docs/narration.md "Marked as
  // synthetic") leads the joined file, whose every voice is synthetic; the pre-roll's own tag is left
  // out. Not its C2PA manifest (a GEOB frame): that binds the hash of the article's own bytes, and
  // the joined file would fail it.
  const tag = id3Without(articleHead.subarray(0, afterId3(articleHead)), ["GEOB"]);
  const intro = prerollFile.subarray(first.offset);
  const size = tag.length + intro.length + articleSize - second.offset;
  const body = await env.AUDIO.get(audioObjectPath(articleKey, "mp3"), { range: { offset: second.offset } });
  if (!body) throw new Error(`audio object ${articleKey} is missing`);
  // A fixed-length stream lets R2 store the article part without holding it in memory.
  const joined = new FixedLengthStream(size);
  const writing = (async () => {
    const writer = joined.writable.getWriter();
    if (tag.length) await writer.write(tag);
    await writer.write(intro);
    writer.releaseLock();
    await body.body.pipeTo(joined.writable);
  })();
  // Concurrent first requests write the same bytes; only the first write lands (R2 one write a second per key).
  await Promise.all([
    env.AUDIO.put(audioObjectPath(key, "mp3"), joined.readable, { onlyIf: { etagDoesNotMatch: "*" }, httpMetadata: { contentType: "audio/mpeg" } }),
    writing,
  ]);
  const durationSeconds = preroll.duration_seconds + article.durationSeconds;
  await db.insert(audioObjects).values({ key, provider: "preroll", voice: article.voice, durationSeconds, mp3Bytes: size }).onConflictDoNothing();
  return { key, durationSeconds };
}
