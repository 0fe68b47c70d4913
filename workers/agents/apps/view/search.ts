// The view of search_articles (resource ui://narration/search, docs/agents/apps.md "A player inside the chat"):
// the results as a list, each playable in place. One audio element moves to the result being played; a
// result without audio yet asks get_audio_url for it through the host, shows the wait, and plays when the
// render is done.
import { type AudioAnswer, answerOf, renderedAudio, ToolFailed } from "./lib/audio";
import { connectToHost, type Host } from "./lib/host";
import { element, renderingStatus, speedControl, webAddress } from "./lib/page";

/** A result of search_articles (its output schema, workers/agents/tools/search_articles.ts), as far as the list reads it. */
interface Found {
  slug: string;
  title: string;
  publisher: string;
  audio_url: string | null;
  listen_seconds: number | null;
  snippet: string;
}

const main = document.querySelector("main")!;
const heading = main.appendChild(element("h1", "", "Articles read aloud"));
const list = main.appendChild(element("ol", "results"));
const audio = element("audio");
audio.controls = true;
audio.preload = "none";
const controls = element("div", "player");
controls.append(audio, speedControl(audio));

/** The snippet's text with its matches marked: the server HTML-escapes it and wraps matches in <mark>, parsed here as text, never as markup. */
function snippetOf(snippet: string): HTMLParagraphElement {
  const p = element("p", "snippet");
  const text = (html: string) => new DOMParser().parseFromString(html, "text/html").documentElement.textContent ?? "";
  p.append(...snippet.split(/<\/?mark>/).map((part, i) => (i % 2 ? element("mark", "", text(part)) : text(part))));
  return p;
}

/** Plays `url` in `item`, where the player moves. */
function playIn(item: HTMLElement, url: string): void {
  if (!webAddress(url)) return;
  item.append(controls);
  if (audio.src !== url) audio.src = url;
  void audio.play().catch(() => undefined);
}

/** The result `found` as an item of the list with its Play button. */
function itemOf(host: Host, found: Found): HTMLLIElement {
  const item = element("li", "result");
  item.dataset.slug = found.slug;
  item.append(element("h2", "", found.title));
  const minutes = found.listen_seconds ? ` · ${Math.max(1, Math.round(found.listen_seconds / 60))} min` : "";
  item.append(element("p", "publisher", `${found.publisher}${minutes}`), snippetOf(found.snippet));
  const button = item.appendChild(element("button", "play", "Play"));
  button.type = "button";
  const status = item.appendChild(element("p", "status"));
  status.setAttribute("role", "status");
  let url = found.audio_url;
  button.addEventListener("click", async () => {
    if (url) return playIn(item, url);
    button.disabled = true;
    try {
      const ready: AudioAnswer = await renderedAudio(host, found.slug, (s) => (status.textContent = renderingStatus(s)));
      url = ready.audio_url!;
      status.textContent = "";
      playIn(item, url);
    } catch (err) {
      status.textContent = err instanceof ToolFailed ? `Not available: ${err.message}` : "The narration could not be loaded.";
    } finally {
      button.disabled = false;
    }
  });
  return item;
}

// The host sends the result only after the handshake (ui/notifications/initialized), so `host` is there by then.
const host: Promise<Host> = connectToHost({
  async toolResult(result) {
    try {
      const { query, articles } = answerOf<{ query: string | null; articles: Found[] }>(result);
      heading.textContent = query ? `Articles on “${query}”, read aloud` : "Trending articles, read aloud";
      const h = await host;
      list.replaceChildren(...articles.map((found) => itemOf(h, found)));
      if (!articles.length) list.append(element("li", "status", "No articles found."));
    } catch (err) {
      list.replaceChildren(element("li", "status", err instanceof ToolFailed ? err.message : "The results could not be shown."));
    }
  },
});
