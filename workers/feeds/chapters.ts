// Podcasting 2.0 JSON chapters (podcast:chapters, type application/json+chapters; the format is
// https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/examples/chapters/jsonChapters.md,
// version 1.2.0). Chapters start where paragraphs start, at the starts the render recorded from its
// join (docs/narration.md "Paragraph timings"), so a chapter jump lands in the pause before its first words.

/** The chapters document. */
export interface ChaptersJson {
  version: "1.2.0";
  title?: string;
  chapters: { startTime: number; title: string }[];
}

/** A heading line in plain text: short, no sentence punctuation at its end, or marked "#" as in Markdown. */
const MAX_HEADING_CHARS = 80;
const MAX_HEADING_WORDS = 12;

/** The heading `paragraph` is, without Markdown's "#" marks; null when it reads as prose. */
export function headingOf(paragraph: string): string | null {
  const marked = /^#{1,6}\s+(.+)$/.exec(paragraph);
  if (marked) return marked[1].replace(/\s+#+\s*$/, "").trim() || null;
  if (paragraph.length > MAX_HEADING_CHARS || paragraph.split(/\s+/).length > MAX_HEADING_WORDS) return null;
  return /[.!?…:;,"'”’)\]]$/.test(paragraph) ? null : paragraph;
}

/** Seconds from which a chapter of paragraph groups is worth having: a chapter a minute, as a rule. */
const GROUP_SECONDS = 60;
const MIN_GROUPS = 2;
const MAX_GROUPS = 10;
/** Words of a paragraph that name a chapter made of it. */
const TITLE_WORDS = 8;

/** A chapter title from the start of a paragraph: its first words, "…" where it was cut. */
function openingWords(paragraph: string): string {
  const words = paragraph.split(/\s+/);
  return words.length <= TITLE_WORDS
    ? paragraph
    : `${words
        .slice(0, TITLE_WORDS)
        .join(" ")
        .replace(/[,;:]$/, "")}…`;
}

const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * The chapters of a narration whose paragraphs (the title first, kernel/paragraph-timings.ts
 * narratedParagraphs) start at `starts` (seconds) in audio of `durationSeconds`. With headings in
 * the body, a chapter starts at each, named by it, after a first chapter named by the title; without,
 * the paragraphs are grouped into chapters of about a minute (at least two when there are two body
 * paragraphs), each named by its opening words. The first chapter starts at 0.
 */
export function chaptersOf(title: string, paragraphs: string[], starts: number[], durationSeconds: number): ChaptersJson {
  const chapters: ChaptersJson["chapters"] = [{ startTime: 0, title }];
  const body = paragraphs.map((text, i) => ({ text, start: starts[i] })).slice(1);
  const headings = body.flatMap((p) => {
    const heading = headingOf(p.text);
    return heading ? [{ startTime: ms(p.start), title: heading }] : [];
  });
  if (headings.length > 0) {
    chapters.push(...headings.filter((h) => h.startTime > 0));
    return { version: "1.2.0", title, chapters };
  }
  const groups = Math.min(body.length, MAX_GROUPS, Math.max(MIN_GROUPS, Math.round(durationSeconds / GROUP_SECONDS)));
  // Group k > 0 begins at the first paragraph that starts at or after k / groups of the audio, so
  // groups are close to equal in time (never in paragraphs alone: one paragraph may be long).
  let from = 1;
  for (let k = 1; k < groups; k++) {
    const at = (durationSeconds * k) / groups;
    const next = body.findIndex((p, i) => i + 1 > from && p.start >= at);
    if (next === -1) break;
    from = next + 1;
    chapters.push({ startTime: ms(body[next].start), title: openingWords(body[next].text) });
  }
  if (chapters.length === 1 && body.length >= 2) {
    // Audio too short for the rule above: the second half of the paragraphs is the second chapter.
    const half = body[Math.floor(body.length / 2)];
    chapters.push({ startTime: ms(half.start), title: openingWords(half.text) });
  }
  return { version: "1.2.0", title, chapters };
}
