import { and, eq, type SQL } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { articles, audioObjects, database } from "../db";
import { narratedText } from "../kernel/article-text";
import { narratedParagraphs, startsInSeconds } from "../kernel/paragraph-timings";
import { estimatedWords, paragraphWords, type TimedWord } from "../kernel/word-timings";
import { chaptersOf } from "./chapters";
import { webVttOfWords } from "./vtt";

export const VTT_CONTENT_TYPE = "text/vtt; charset=utf-8";
/** Podcasting 2.0 JSON transcripts are served as the type the podcast:transcript tag names. */
export const JSON_TRANSCRIPT_CONTENT_TYPE = "application/json";
/** JSON chapters' own media type (podcast:chapters type="application/json+chapters"). */
export const CHAPTERS_CONTENT_TYPE = "application/json+chapters";

/** What a transcript or chapters file is made of: the narrated paragraphs, their spans and their words. */
interface Narration {
  title: string;
  durationSeconds: number;
  /** The paragraphs (narratedParagraphs), or the whole text as one for audio rendered before paragraph timings. */
  paragraphs: string[];
  /** Where each paragraph starts, in seconds. */
  starts: number[];
  /** Each paragraph's words with where they are spoken: measured by the render, else estimated by characters. */
  words: TimedWord[][];
}

/**
 * The narration of the article `slug` among those `visible` allows; 404 when there is no such
 * article or it has no audio (then no feed lists it either).
 */
async function narrationOf(env: Pick<Env, "DB" | "AUDIO">, slug: string, visible: SQL): Promise<Narration> {
  const [row] = await database(env)
    .select({
      title: articles.title,
      bodyText: articles.bodyText,
      key: audioObjects.key,
      durationSeconds: audioObjects.durationSeconds,
      paragraphStarts: audioObjects.paragraphStarts,
    })
    .from(articles)
    .innerJoin(audioObjects, eq(audioObjects.key, articles.audioKey))
    .where(and(eq(articles.slug, slug), visible))
    .limit(1);
  if (!row) throw new ApiError("not_found", `no transcript for ${slug}`);
  // The very text the audio narrates.
  const paragraphs = narratedParagraphs(row);
  const starts = startsInSeconds(row.paragraphStarts, paragraphs.length);
  const timed = await paragraphWords(env, row, paragraphs, starts);
  if (starts && timed) return { title: row.title, durationSeconds: row.durationSeconds, paragraphs, starts, words: timed.words };
  const whole = [narratedText(row)];
  return { title: row.title, durationSeconds: row.durationSeconds, paragraphs: whole, starts: [0], words: estimatedWords(whole, [0], row.durationSeconds) };
}

/**
 * The WebVTT transcript of the article `slug` among those `visible` allows, timed by its words as the
 * render measured them (by character shares within each paragraph's recorded span for audio
 * rendered before word timings, over the whole text before paragraph timings).
 */
export async function serveTranscript(env: Env, slug: string, visible: SQL, headers: Record<string, string>): Promise<Response> {
  const n = await narrationOf(env, slug, visible);
  const vtt = webVttOfWords(n.words.map((words, i) => ({ words, end: n.starts[i + 1] ?? n.durationSeconds })));
  return new Response(vtt, { headers: { "Content-Type": VTT_CONTENT_TYPE, ...headers } });
}

/**
 * The Podcasting 2.0 JSON transcript (https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/tags/transcript.md,
 * "JSON"): version 1.0.0 and one segment per word, with its start and end in seconds.
 */
export async function serveJsonTranscript(env: Env, slug: string, visible: SQL, headers: Record<string, string>): Promise<Response> {
  const n = await narrationOf(env, slug, visible);
  const segments = n.words.flat().map((w) => ({ startTime: w.start, endTime: Math.max(w.end, w.start), body: w.text }));
  return Response.json({ version: "1.0.0", segments }, { headers: { "Content-Type": JSON_TRANSCRIPT_CONTENT_TYPE, ...headers } });
}

/** The JSON chapters of the article `slug` (chapters.ts): from its headings, or groups of its paragraphs. */
export async function serveChapters(env: Env, slug: string, visible: SQL, headers: Record<string, string>): Promise<Response> {
  const n = await narrationOf(env, slug, visible);
  const chapters = chaptersOf(n.title, n.paragraphs, n.starts, n.durationSeconds);
  return Response.json(chapters, { headers: { "Content-Type": CHAPTERS_CONTENT_TYPE, ...headers } });
}
