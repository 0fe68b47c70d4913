import { and, eq, type SQL } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { articles, audioObjects, database } from "../db";
import { narratedText } from "../kernel/article-text";
import { narratedParagraphs, startsInSeconds } from "../kernel/paragraph-timings";
import { webVtt } from "./vtt";

export const VTT_CONTENT_TYPE = "text/vtt; charset=utf-8";

/**
 * The WebVTT transcript of the article `slug` among those `visible` allows, timed over its ready
 * audio by the paragraph starts its render recorded (by character shares over the whole text for
 * audio rendered before timings); 404 when there is no such article or it has no audio (then no
 * feed lists it either).
 */
export async function serveTranscript(env: Env, slug: string, visible: SQL, headers: Record<string, string>): Promise<Response> {
  const [row] = await database(env)
    .select({
      title: articles.title,
      bodyText: articles.bodyText,
      durationSeconds: audioObjects.durationSeconds,
      paragraphStarts: audioObjects.paragraphStarts,
    })
    .from(articles)
    .innerJoin(audioObjects, eq(audioObjects.key, articles.audioKey))
    .where(and(eq(articles.slug, slug), visible))
    .limit(1);
  if (!row) throw new ApiError("not_found", `no transcript for ${slug}`);
  // The cues time the very text the audio narrates.
  const paragraphs = narratedParagraphs(row);
  const starts = startsInSeconds(row.paragraphStarts, paragraphs.length);
  const stretches = starts ? paragraphs.map((text, i) => ({ text, start: starts[i] })) : [{ text: narratedText(row), start: 0 }];
  const vtt = webVtt(stretches, row.durationSeconds);
  return new Response(vtt, { headers: { "Content-Type": VTT_CONTENT_TYPE, ...headers } });
}
