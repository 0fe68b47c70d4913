// What both views build their page from: the API's address (set by the server in the view's HTML, as the
// CSP's one domain) and the few elements they share.

/** BASE_URL of the deployment that served the view, without a trailing slash (workers/agents/apps/views.ts writes it). */
export function apiBase(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="narration-api"]');
  return (meta?.content ?? "").replace(/\/+$/, "");
}

/**
 * `url` when it is an http(s) address, else null: an audio address comes in a tool result, and a
 * `javascript:` or `data:` one never becomes an audio element's source.
 */
export function webAddress(url: string | null): string | null {
  try {
    return url && /^https?:$/.test(new URL(url).protocol) ? url : null;
  } catch {
    return null;
  }
}

/** A new element of `tag` with `className` and `text`. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text = ""): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

/** The speeds the player offers, as the web player's (docs/web.md "Web front-end"). */
const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];

/** A labelled speed control that sets `audio`'s playbackRate. */
export function speedControl(audio: HTMLAudioElement): HTMLLabelElement {
  const label = element("label", "speed", "Speed ");
  const select = label.appendChild(element("select"));
  for (const s of SPEEDS) select.append(new Option(`${s}×`, String(s), s === 1, s === 1));
  select.addEventListener("change", () => (audio.playbackRate = Number(select.value)));
  audio.addEventListener("ratechange", () => (select.value = String(audio.playbackRate)));
  return label;
}

/** "Rendering the narration… 12 s", the status shown while a render is awaited. */
export const renderingStatus = (seconds: number) => `Rendering the narration… ${seconds} s`;
