import { embedPlayerUrl, webUrl } from "../core/config";
import { topicArtUrl } from "../kernel/public-urls";
import { verticalLabel } from "../kernel/verticals";
import type { TimedWord } from "../kernel/word-timings";
import { wordTokens } from "../kernel/words";
import type { ArticleView, Paragraph } from "./article-view";
import { escapeHtml } from "./page";

/** The speeds the player offers (docs/web.md "Web front-end"). */
const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];

/** The topic art of an article's vertical (GET /v1/topic-art) with the topic's name on it, as the lock screen and cards show it. */
export function articleArtUrl(env: object, view: Pick<ArticleView, "vertical">, w = 1200, h = 630): string {
  return topicArtUrl(env, `${view.vertical.replace(/_/g, " ")} stories`, w, h, verticalLabel(view.vertical));
}

/** Where a listener subscribes (the listener's pages). */
export function subscribeUrl(env: object): string {
  return `${webUrl(env)}/listen`;
}

/** The player's height in the iframe snippet: controls plus a few lines of text, from 320 px wide. */
export const EMBED_HEIGHT = 420;

/** The copy-paste iframe snippet of an article's player (also oEmbed's `html`). */
export function embedSnippet(env: object, view: Pick<ArticleView, "slug" | "title">, width: string | number = "100%", height = EMBED_HEIGHT): string {
  return `<iframe src="${escapeHtml(embedPlayerUrl(env, view.slug))}" title="${escapeHtml(`Listen: ${view.title}`)}" width="${escapeHtml(String(width))}" height="${height}" style="border:0;max-width:100%" loading="lazy" allow="autoplay; encrypted-media"></iframe>`;
}

/** A paragraph of the text, carrying its start in the audio when one was recorded. */
export function paragraphAttributes(p: Paragraph, index: number): string {
  return p.start === null ? "" : ` data-start="${p.start.toFixed(3)}" data-index="${index}"`;
}

/**
 * `text` with each word in a span carrying where it is spoken (data-s and data-e, seconds), which
 * client/player.ts highlights and seeks to; plain text when there are no word timings or they do
 * not count the same words.
 */
function timedText(text: string, words: TimedWord[] | null): string {
  const shown = wordTokens(text);
  if (!words || words.length !== shown.length) return escapeHtml(text);
  // What lies between two words (a space, or nothing in Japanese) is kept as the text has it.
  return shown
    .map((w, i) => {
      const before = escapeHtml(text.slice(i === 0 ? w.from : shown[i - 1].to, w.from));
      return `${before}<span class="w" data-s="${words[i].start.toFixed(3)}" data-e="${words[i].end.toFixed(3)}">${escapeHtml(w.text)}</span>`;
    })
    .join("");
}

/** The title as the <h1> shows it (without the full stop the narration adds), its words timed as the first paragraph's. */
export function headingText(view: ArticleView): string {
  return timedText(view.title, view.paragraphs[0]?.words ?? null);
}

/** The paragraphs after the title (the first narrated paragraph, kernel/paragraph-timings.ts, lives in the <h1>). */
export function bodyParagraphs(view: ArticleView): string {
  return view.paragraphs
    .slice(1)
    .map((p, i) => `<p${paragraphAttributes(p, i + 1)}>${timedText(p.text, p.words)}</p>`)
    .join("");
}

/**
 * The player, or a notice while the narration is not rendered yet. `beacon`: where the player reports
 * its start and completion (the embed's, docs/publishers.md "Listening numbers").
 */
export function playerOrNotice(env: object, view: ArticleView, beacon?: string): string {
  return playerMarkup(env, view, beacon) || `<p class="status">The narration is not ready yet. Try again in a minute.</p>`;
}

/**
 * The player: a native <audio controls> (MP3 first, the canonical; Opus as an alternative source)
 * that plays without script, and the custom controls client/player.ts reveals. Empty when the article
 * has no audio (a stub, or a render not done yet).
 */
function playerMarkup(env: object, view: ArticleView, beacon?: string): string {
  if (!view.audio) return "";
  const speeds = SPEEDS.map((s) => `<option value="${s}"${s === 1 ? " selected" : ""}>${s}×</option>`).join("");
  const seconds = view.listenSeconds ?? 0;
  return `<div class="player" data-player data-title="${escapeHtml(view.title)}" data-publisher="${escapeHtml(view.publisher)}" data-art="${escapeHtml(articleArtUrl(env, view, 512, 512))}" data-duration="${seconds}"${beacon ? ` data-beacon="${escapeHtml(beacon)}"` : ""}>
<audio controls preload="metadata"><source src="${escapeHtml(view.audio.mp3)}" type="audio/mpeg"><source src="${escapeHtml(view.audio.opus)}" type="audio/ogg; codecs=opus"><a href="${escapeHtml(view.audio.mp3)}">Download the MP3</a></audio>
<div class="controls" role="group" aria-label="Player" hidden>
<button type="button" data-action="back" aria-label="Back 15 seconds"><span aria-hidden="true">↺15</span></button>
<button type="button" class="play" data-action="play" aria-label="Play"><span aria-hidden="true" class="icon"></span></button>
<button type="button" data-action="forward" aria-label="Forward 15 seconds"><span aria-hidden="true">15↻</span></button>
<input type="range" class="seek" data-el="seek" min="0" max="${seconds}" step="1" value="0" aria-label="Seek">
<span class="times"><span data-el="elapsed">0:00</span> / <span data-el="duration">0:00</span> <span class="remaining">(<span data-el="remaining"></span><span class="visually-hidden"> remaining</span>)</span></span>
<label class="speed">Speed <select data-el="speed">${speeds}</select></label>
</div>
<p class="status" data-el="status" role="status"></p>
${view.narrator ? `<p class="narrator">${escapeHtml(view.narrator)}</p>` : ""}<p id="text-keys" class="visually-hidden">Enter plays from here. The left and right arrow keys move word by word; Enter on a word plays from that word.</p>
</div>`;
}
