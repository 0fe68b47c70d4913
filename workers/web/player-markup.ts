import { embedPlayerUrl, webUrl } from "../core/config";
import { topicArtUrl } from "../kernel/public-urls";
import { verticalLabel } from "../kernel/verticals";
import type { TimedWord } from "../kernel/word-timings";
import { wordTokens } from "../kernel/words";
import type { ArticleView, Paragraph } from "./article-view";
import { escapeHtml } from "./page";
import { primaryLanguage } from "../kernel/language";
import { clientWords, playerWords } from "./player-words";

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
export function embedSnippet(
  env: object,
  view: Pick<ArticleView, "slug" | "title" | "language">,
  width: string | number = "100%",
  height = EMBED_HEIGHT,
): string {
  const { words } = playerWords(view.language);
  return `<iframe src="${escapeHtml(embedPlayerUrl(env, view.slug))}" title="${escapeHtml(`${words.listen}: ${view.title}`)}" width="${escapeHtml(String(width))}" height="${height}" style="border:0;max-width:100%" loading="lazy" allow="autoplay; encrypted-media"></iframe>`;
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
  const { words, language } = playerWords(view.language);
  return playerMarkup(env, view, beacon) || `<p class="status"${inWords(view, language)}>${escapeHtml(words.notReady)}</p>`;
}

/** lang="en" on the player's words when the article's language is one the player does not speak (player-words.ts). */
function inWords(view: Pick<ArticleView, "language">, language: string): string {
  return primaryLanguage(view.language) === language ? "" : ` lang="${language}"`;
}

/** The words the article's embed frame shows around the player: the text's region. */
export function articleTextLabel(view: Pick<ArticleView, "language">): string {
  return escapeHtml(playerWords(view.language).words.articleText);
}

/**
 * The player: a native <audio controls> (MP3 first, the canonical; Opus as an alternative source)
 * that plays without script, and the custom controls client/player.ts reveals. Empty when the article
 * has no audio (a stub, or a render not done yet).
 */
function playerMarkup(env: object, view: ArticleView, beacon?: string): string {
  if (!view.audio) return "";
  const { words: w, language } = playerWords(view.language);
  const t = (text: string) => escapeHtml(text);
  const speeds = SPEEDS.map((s) => `<option value="${s}"${s === 1 ? " selected" : ""}>${s}×</option>`).join("");
  const seconds = view.listenSeconds ?? 0;
  // The player's words (the controls, the status, the keys' help) are in `language`; its data-* carry the article's own text.
  // The controls run left to right in every script, as media controls do: back is left of forward, and the
  // seek bar fills from the left (the time, not the text, moves).
  return `<div class="player" data-player${inWords(view, language)} data-words="${t(JSON.stringify(clientWords(w)))}" data-title="${t(view.title)}" data-publisher="${t(view.publisher)}" data-art="${t(articleArtUrl(env, view, 512, 512))}" data-duration="${seconds}"${beacon ? ` data-beacon="${t(beacon)}"` : ""}>
<audio controls preload="metadata"><source src="${t(view.audio.mp3)}" type="audio/mpeg"><source src="${t(view.audio.opus)}" type="audio/ogg; codecs=opus"><a href="${t(view.audio.mp3)}">${t(w.download)}</a></audio>
<div class="controls" role="group" aria-label="${t(w.player)}" dir="ltr" hidden>
<button type="button" data-action="back" aria-label="${t(w.back)}"><span aria-hidden="true">↺15</span></button>
<button type="button" class="play" data-action="play" aria-label="${t(w.play)}"><span aria-hidden="true" class="icon"></span></button>
<button type="button" data-action="forward" aria-label="${t(w.forward)}"><span aria-hidden="true">15↻</span></button>
<input type="range" class="seek" data-el="seek" min="0" max="${seconds}" step="1" value="0" aria-label="${t(w.seek)}">
<span class="times"><span data-el="elapsed">0:00</span> / <span data-el="duration">0:00</span> <span class="remaining">(<span data-el="remaining"></span><span class="visually-hidden"> ${t(w.remaining)}</span>)</span></span>
<label class="speed">${t(w.speed)} <select data-el="speed">${speeds}</select></label>
</div>
<p class="status" data-el="status" role="status"></p>
${view.narrator ? `<p class="narrator"${inWords(view, "en")}>${t(view.narrator)}</p>` : ""}<p id="text-keys" class="visually-hidden">${t(w.textKeys)}</p>
</div>`;
}
