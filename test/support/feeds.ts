import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { addArticle } from "./articles";
import { sha256Hex } from "../../workers/core/crypto";
import { cacheDelete } from "../../workers/core/edge-cache";
import { articles, audioObjects, database, listeners } from "../../workers/db/index";
import { mintToken } from "../../workers/kernel/listener-tokens";
import { audioObjectPath } from "../../workers/kernel/audio-objects";

/** Every public feed path the tests read; their edge-cache entries are dropped before each test. */
export const PUBLIC_FEED_PATHS = [
  "/v1/podcasts/service.xml",
  "/v1/podcasts/service-declassified.xml",
  ...["tech", "markets", "news", "health", "sports", "comedy", "young_moms", "parenting", "science", "finance", "trending"].map(
    (s) => `/v1/podcasts/service-${s}.xml`,
  ),
];

/** The edge cache and the isolate's copies outlive the storage reset of test/setup.ts: forget what earlier tests cached. */
export async function forgetEdgeCache(paths: string[]): Promise<void> {
  await Promise.all(paths.map((p) => cacheDelete(new URL(p, env.BASE_URL).href)));
}

/** Stand-in MP3 bytes: a frame header followed by `size - 4` filler bytes. */
export function mp3Bytes(size: number, seed = 0): Uint8Array {
  const bytes = new Uint8Array(size).map((_, i) => (i * 31 + seed) & 0xff);
  bytes.set([0xff, 0xfb, 0x90, 0x64]);
  return bytes;
}

/**
 * An article whose narration is ready: the MP3 stored in R2 under its cache key and the
 * audio_objects row with its exact size, as the narration pipeline leaves them.
 */
export async function readyArticle(
  over: Partial<typeof articles.$inferInsert> = {},
  audio: { size?: number; duration?: number; opusBytes?: number | null } = {},
) {
  const article = await addArticle(over);
  const key = await sha256Hex(`audio-of-${article.slug}`);
  const bytes = mp3Bytes(audio.size ?? 2048, article.id);
  await env.AUDIO.put(audioObjectPath(key, "mp3"), bytes, { httpMetadata: { contentType: "audio/mpeg" } });
  const db = database(env);
  await db.insert(audioObjects).values({
    key,
    provider: "test",
    voice: "test-voice",
    durationSeconds: audio.duration ?? 61.4,
    mp3Bytes: bytes.length,
    opusBytes: audio.opusBytes === undefined ? 900 : audio.opusBytes,
  });
  const [row] = await db.update(articles).set({ audioKey: key, listenSeconds: 61 }).where(eq(articles.id, article.id)).returning();
  return row;
}

/** A listener following `verticals`, with its private feed token and its account token. */
export async function feedListener(verticals: string[] = []) {
  const [account, feed] = await Promise.all([mintToken(env), mintToken(env)]);
  const [listener] = await database(env)
    .insert(listeners)
    .values({
      email: `feeds-${crypto.randomUUID()}@example.test`,
      verticals,
      tokenHash: account.hash,
      tokenEncrypted: account.encrypted,
      privateFeedTokenHash: feed.hash,
      privateFeedTokenEncrypted: feed.encrypted,
    })
    .returning();
  return { listener, feedToken: feed.token, accountToken: account.token };
}
