/**
 * WebVTT transcripts built from the article text (https://www.w3.org/TR/webvtt1/). The narration
 * reads the text in order at a steady pace, so each cue's timing is its share of the characters
 * times the audio duration: close enough for following along and for search.
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

/** The WebVTT document for `text` narrated over `durationSeconds`. */
export function webVtt(text: string, durationSeconds: number): string {
  const cues = cueTexts(text);
  const total = cues.reduce((n, c) => n + c.length, 0) || 1;
  let at = 0;
  const blocks = cues.map((cue, i) => {
    const start = at;
    at += (cue.length / total) * durationSeconds;
    return `${i + 1}\n${timestamp(start)} --> ${timestamp(Math.max(at, start + 0.001))}\n${escapeCue(cue)}`;
  });
  return ["WEBVTT", ...blocks].join("\n\n") + "\n";
}
