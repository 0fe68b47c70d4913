// The transcript of the player view, word by word, lit as the audio speaks it. The words and their timings
// are the article's public Podcasting 2.0 JSON transcript (GET {BASE_URL}/v1/podcasts/transcripts/{slug}.json,
// the CSP's one connect domain), whose words are those of the narrated paragraphs in order, the title's
// first. The text's paragraphs come from get_article (through the host): when their words add up to the
// transcript's, the words are laid out in them; otherwise the transcript reads as one block.

/** One word of the JSON transcript: seconds from the start of the audio, and its text. */
interface Segment {
  startTime: number;
  endTime: number;
  body: string;
}

/** The article's timed words, or null when it has no public transcript (a private article, or no audio yet). */
export async function transcriptWords(api: string, slug: string): Promise<Segment[] | null> {
  try {
    const response = await fetch(`${api}/v1/podcasts/transcripts/${encodeURIComponent(slug)}.json`);
    if (!response.ok) return null;
    const { segments } = (await response.json()) as { segments?: Segment[] };
    return Array.isArray(segments) && segments.length ? segments : null;
  } catch {
    return null;
  }
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** A word as a span carrying its start (data-s); a click plays from it. */
function wordSpan(segment: Segment): HTMLSpanElement {
  const span = document.createElement("span");
  span.className = "w";
  span.dataset.s = String(segment.startTime);
  span.textContent = segment.body;
  return span;
}

/** `words` as spans in `into`, separated by spaces. */
function fill(into: HTMLElement, words: Segment[]): HTMLSpanElement[] {
  into.replaceChildren();
  return words.map((w, i) => {
    if (i) into.append(" ");
    return into.appendChild(wordSpan(w));
  });
}

/**
 * Lays out the timed words: the title's in `heading` (it is read first, with a full stop), the rest in
 * `box`, in the paragraphs of `body` when their words count the same. Returns every word's span in order.
 */
export function layOut(heading: HTMLElement, box: HTMLElement, title: string, body: string, words: Segment[]): HTMLSpanElement[] {
  const titleWords = title.split(/\s+/).filter(Boolean);
  const inTitle = titleWords.length;
  const paragraphs = body
    .split(/\n\s*\n/)
    .map(wordCount)
    .filter((n) => n > 0);
  const counted = paragraphs.reduce((a, b) => a + b, inTitle) === words.length;
  // The heading shows the title as written: its words, timed as read (the last without the full stop the narration adds).
  const spans = counted
    ? fill(
        heading,
        words.slice(0, inTitle).map((w, i) => ({ ...w, body: titleWords[i] })),
      )
    : [];
  box.replaceChildren();
  let at = counted ? inTitle : 0;
  for (const n of counted ? paragraphs : [words.length]) {
    const p = box.appendChild(document.createElement("p"));
    spans.push(...fill(p, words.slice(at, at + n)));
    at += n;
  }
  return spans;
}

/**
 * Keeps the word being spoken lit (class "current": the last word whose start has passed) as `audio`
 * plays, every frame while it plays, and scrolls it into view inside `box` only (never the host's page).
 * A click on a word plays from there.
 */
export function follow(audio: HTMLAudioElement, box: HTMLElement, spans: HTMLSpanElement[]): void {
  const starts = spans.map((s) => Number(s.dataset.s));
  let lit = -1;
  const show = () => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= audio.currentTime) lo = mid + 1;
      else hi = mid;
    }
    if (lo - 1 === lit) return;
    spans[lit]?.classList.remove("current");
    lit = lo - 1;
    const span = spans[lit];
    if (!span) return;
    span.classList.add("current");
    const a = span.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    if (box.contains(span) && (a.top < b.top || a.bottom > b.bottom)) box.scrollTop += a.top - b.top - box.clientHeight / 3;
  };
  let frame = 0;
  const tick = () => {
    show();
    frame = audio.paused ? 0 : requestAnimationFrame(tick);
  };
  audio.addEventListener("play", () => {
    if (!frame) frame = requestAnimationFrame(tick);
  });
  for (const type of ["timeupdate", "seeked"]) audio.addEventListener(type, show);
  for (const span of spans) {
    span.addEventListener("click", () => {
      audio.currentTime = Number(span.dataset.s);
      void audio.play().catch(() => undefined);
    });
  }
}
