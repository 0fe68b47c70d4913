// The paragraphs of a narration and where each starts in its audio. The render voices the text
// paragraph by paragraph and records, from the join itself, the sample at which each paragraph
// starts (docs/narration.md "Paragraph timings"); the embed player and the feeds' WebVTT transcripts read
// those starts back here. One split serves both sides, so the nth start is the nth paragraph.
import { eq } from "drizzle-orm";
import { audioObjects, database } from "../db";
import { MASTER_SAMPLE_RATE } from "./audio-objects";

/** A blank line (whitespace only between two line breaks) ends a paragraph. */
const BLANK_LINES = /(?:\r?\n[^\S\n]*)+\r?\n/;
/** A line break after the end of a sentence (closing quotes and brackets allowed). */
const SENTENCE_END_LINE = /(?<=[.!?…:]["'”’)\]]*)[^\S\n]*\r?\n/;

/** Each paragraph trimmed, every run of whitespace one space (a hard-wrapped line is no paragraph); empty ones dropped. */
function tidy(paragraphs: string[]): string[] {
  return paragraphs.map((p) => p.replace(/\s+/g, " ").trim()).filter((p) => p !== "");
}

/**
 * The paragraphs of narrated `text`, in order: blank lines separate paragraphs. The render splits
 * its input with this function, so a text without a blank line is one paragraph, as before timings.
 */
export function paragraphsOf(text: string): string[] {
  return tidy(text.split(BLANK_LINES));
}

/**
 * The paragraphs an article's narration reads, exactly as the render splits them: the title (with a
 * full stop, as it is read) is the first, then the body's paragraphs. The body's paragraphs are
 * separated by blank lines; a body without any blank line is split where a line ends a sentence
 * (plain text that puts one paragraph on each line), while other line breaks are wrapping.
 * `narratedText` joins these with blank lines, so paragraphsOf(narratedText(a)) equals narratedParagraphs(a).
 */
export function narratedParagraphs(article: { title: string; bodyText: string }): string[] {
  const body = article.bodyText;
  return tidy([`${article.title}.`, ...body.split(BLANK_LINES.test(body) ? BLANK_LINES : SENTENCE_END_LINE)]);
}

/**
 * Recorded starts (samples at MASTER_SAMPLE_RATE, as stored in audio_objects.paragraph_starts) in
 * seconds, or null when none were recorded (audio rendered before timings) or they do not count
 * `paragraphs` paragraphs (audio of another version of the text).
 */
export function startsInSeconds(samples: number[] | null, paragraphs: number): number[] | null {
  if (!samples || samples.length !== paragraphs) return null;
  return samples.map((s) => s / MASTER_SAMPLE_RATE);
}

// Encoder delay. Starts are on the master's timeline, which every encoding shares: the WAV is the
// master's samples; an Ogg Opus decoder drops the pre-skip its OpusHead records (RFC 7845 §4.2), so
// Opus plays master sample n at n / rate. The MP3 has no gapless (LAME/Xing) header, so a decoder
// plays LAME's delay first (576 encoder plus 529 decoder samples: 46 ms at 24 kHz) and every moment
// comes up to 46 ms after its master time. A recorded start sits in the pause before its paragraph,
// 15 ms ahead of the onset (the join's guard), so in the MP3 the paragraph's speech begins 15 to 61 ms
// after its recorded start: a highlight leads the voice a little and never trails it. Shifting the
// starts by the delay would put them wrong for Opus, WAV and the decoders that do trim it.

/**
 * Where each paragraph of narratedParagraphs(article) starts in the article's audio
 * (article.audioKey), in seconds from the start of the audio: ascending, the first at about 0.1 s
 * (the lead-in silence), one per paragraph, each in the pause just before its paragraph's speech.
 * They hold for the MP3 the player plays, and for the Opus and the WAV (encoder delay above). Pass
 * the article's row (or its slug's title, body_text and audio_key). Null when the article has no audio yet,
 * or its audio was rendered before timings were recorded, or for another version of its text: then
 * the caller has no timings and must not invent them.
 */
export async function paragraphStarts(env: Pick<Env, "DB">, article: { audioKey: string | null; title: string; bodyText: string }): Promise<number[] | null> {
  if (!article.audioKey) return null;
  const row = await database(env).select({ starts: audioObjects.paragraphStarts }).from(audioObjects).where(eq(audioObjects.key, article.audioKey)).get();
  return row ? startsInSeconds(row.starts, narratedParagraphs(article).length) : null;
}
