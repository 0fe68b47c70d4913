// Where a read mark leads (docs/narration.md "The watermark"): the payload's id is a paragraph's,
// and audio_marks says which stored narrations carry that paragraph (render/pipeline/watermark.ts).
import { and, eq } from "drizzle-orm";
import { articlePageUrl } from "../../core/config";
import { articles, audioMarks, audioObjects, database } from "../../db/index";

/** A stored narration that carries a mark: when it was made, in which voice, and the public articles it narrates. */
export interface MarkedNarration {
  narrated_at: string;
  provider: string;
  voice: string;
  duration_seconds: number;
  /** The public articles it narrates (private and members-only ones are not named). */
  articles: { slug: string; title: string; publisher: string; url: string }[];
}

/** Every stored narration carrying the mark of `markId`, oldest first; none for an id this deployment never wrote. */
export async function narrationsMarked(env: { DB: D1Database }, markId: string): Promise<MarkedNarration[]> {
  const rows = await database(env)
    .select({
      key: audioObjects.key,
      createdAt: audioObjects.createdAt,
      provider: audioObjects.provider,
      voice: audioObjects.voice,
      durationSeconds: audioObjects.durationSeconds,
      slug: articles.slug,
      title: articles.title,
      publisher: articles.publisher,
    })
    .from(audioMarks)
    .innerJoin(audioObjects, eq(audioObjects.key, audioMarks.audioKey))
    .leftJoin(articles, and(eq(articles.audioKey, audioObjects.key), eq(articles.visibility, "public")))
    .where(eq(audioMarks.markId, markId))
    .orderBy(audioObjects.createdAt, audioObjects.key);
  const narrations = new Map<string, MarkedNarration>();
  for (const row of rows) {
    const narration = narrations.get(row.key) ?? {
      narrated_at: row.createdAt.toISOString(),
      provider: row.provider,
      voice: row.voice,
      duration_seconds: row.durationSeconds,
      articles: [],
    };
    narrations.set(row.key, narration);
    if (row.slug !== null && row.title !== null && row.publisher !== null) {
      narration.articles.push({ slug: row.slug, title: row.title, publisher: row.publisher, url: articlePageUrl(env, row.slug) });
    }
  }
  return [...narrations.values()];
}
