import { eq } from "drizzle-orm";
import { type ArticleRow, audioObjects, database } from "../db/index";
import { articleBySlug } from "../kernel/article-by-slug";
import { audioReachOf, audioUrl } from "../kernel/public-urls";
import { narratedParagraphs, startsInSeconds } from "../kernel/paragraph-timings";
import { readByAiVoice } from "../kernel/synthetic-voice";
import { isShownInFull, openableBy } from "../kernel/visibility";
import { isWebUrl } from "../kernel/web-url";
import { paragraphWords, type TimedWord } from "../kernel/word-timings";

/** One paragraph of the narration, with where it starts in the audio when the render recorded it. */
export interface Paragraph {
  text: string;
  /** Seconds from the start of the audio; null when no timings were recorded. */
  start: number | null;
  /**
   * Each word of the text (kernel/words.ts wordsOf) with where it is spoken, as the render
   * measured it; null when it measured none (audio rendered before word timings).
   */
  words: TimedWord[] | null;
}

/** An article as the public pages show it to an anonymous viewer. */
export interface ArticleView {
  slug: string;
  title: string;
  publisher: string;
  vertical: string;
  summary: string;
  /** The original on the publisher's site. */
  url: string | null;
  /** BCP 47 tag of the language it is written and narrated in: the page's lang and dir. */
  language: string;
  /** A thin stub (docs/rules.md "Rules" 2): no text, no audio, noindex. */
  stub: boolean;
  /** The narrated paragraphs, the title first; empty on a stub. */
  paragraphs: Paragraph[];
  /** The audio in each format the player offers, MP3 first (the canonical); null on stubs and before a render is done. */
  audio: { mp3: string; opus: string } | null;
  listenSeconds: number | null;
  /** Who reads it: "Read by an AI voice: <voice> (<engine>)"; null without audio. */
  narrator: string | null;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date | null;
}

/**
 * The article `slug` as an anonymous viewer may see it, or null when there is none for them: a
 * listener_private article exists only for its owner, who is not signed in on a public page, so it
 * reads exactly like a missing one (docs/rules.md "Rules" 2).
 */
export async function articleView(env: Pick<Env, "DB" | "AUDIO"> & object, slug: string): Promise<ArticleView | null> {
  const row = await articleBySlug(database(env), slug);
  if (!row || !openableBy(row, null)) return null;
  const full = isShownInFull(row);
  return articleViewOf(
    env,
    row,
    full && row.audioKey
      ? { key: row.audioKey, mp3: audioUrl(env, row.audioKey, "mp3", audioReachOf(row)), opus: audioUrl(env, row.audioKey, "opus", audioReachOf(row)) }
      : null,
  );
}

/**
 * An article row as the pages show it, playing `audio` (its key and where the player fetches it:
 * the public audio URLs, or the studio's own for a narration held for review) or none.
 */
export async function articleViewOf(
  env: Pick<Env, "DB" | "AUDIO"> & object,
  row: ArticleRow,
  audio: { key: string; mp3: string; opus: string } | null,
): Promise<ArticleView> {
  const full = isShownInFull(row);
  const stored = audio ? await database(env).select().from(audioObjects).where(eq(audioObjects.key, audio.key)).get() : undefined;
  const paragraphs = full || audio ? narratedParagraphs(row) : [];
  const starts = stored ? startsInSeconds(stored.paragraphStarts, paragraphs.length) : null;
  const timed = stored ? await paragraphWords(env, stored, paragraphs, starts) : null;
  return {
    slug: row.slug,
    title: row.title,
    publisher: row.publisher,
    vertical: row.vertical,
    summary: full ? row.summary : "",
    // Rows stored before addresses were checked may hold any scheme; pages link http(s) only.
    url: row.url && isWebUrl(row.url) ? row.url : null,
    language: row.language,
    stub: !full,
    paragraphs: paragraphs.map((text, i) => ({ text, start: starts?.[i] ?? null, words: timed?.measured[i] ? timed.words[i] : null })),
    audio: audio ? { mp3: audio.mp3, opus: audio.opus } : null,
    listenSeconds: stored ? Math.round(stored.durationSeconds) : row.listenSeconds,
    narrator: stored ? readByAiVoice(stored.provider, stored.voice) : null,
    publishedAt: row.publishedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
