/**
 * WebVTT transcripts built from the article text (https://www.w3.org/TR/webvtt1/). The text comes in
 * stretches whose start in the audio is known: each paragraph at the start the render recorded
 * (README "Paragraph timings"), or, for audio rendered before timings, the whole text from 0. Within
 * a stretch the narration reads at a steady pace, so each cue's timing is its share of the stretch's
 * characters times the stretch's duration: exact at every paragraph, close enough between.
 */

/** Longest cue text, in characters (a two-line caption). */
const CUE_CHARS = 160;

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?…])\s+/)
    .filter((s) => s !== "");
}

/** Sentences packed into cues of at most CUE_CHARS; a longer sentence is cut at word boundaries. */
function cueTexts(text: string): string[] {
  const cues: string[] = [];
  let current = "";
  for (const sentence of sentences(text)) {
    for (const word of sentence.split(" ")) {
      if (current && current.length + 1 + word.length > CUE_CHARS) {
        cues.push(current);
        current = word;
      } else current = current ? `${current} ${word}` : word;
    }
    if (current.length > CUE_CHARS / 2) {
      cues.push(current);
      current = "";
    }
  }
  if (current) cues.push(current);
  return cues;
}

function timestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** WebVTT cue text escapes &, < and > (WebVTT §4.2.2); "-->" cannot then occur. */
function escapeCue(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A stretch of narrated text and where its narration starts, in seconds; it lasts until the next one starts. */
export interface TimedText {
  text: string;
  start: number;
}

/** The WebVTT document for `stretches` (in order) narrated in audio of `durationSeconds`. */
export function webVtt(stretches: TimedText[], durationSeconds: number): string {
  const blocks: string[] = [];
  stretches.forEach(({ text, start }, s) => {
    const end = stretches[s + 1]?.start ?? durationSeconds;
    const cues = cueTexts(text);
    const total = cues.reduce((n, c) => n + c.length, 0) || 1;
    let at = start;
    for (const cue of cues) {
      const from = at;
      at += (cue.length / total) * (end - start);
      blocks.push(`${blocks.length + 1}\n${timestamp(from)} --> ${timestamp(Math.max(at, from + 0.001))}\n${escapeCue(cue)}`);
    }
  });
  return ["WEBVTT", ...blocks].join("\n\n") + "\n";
}
