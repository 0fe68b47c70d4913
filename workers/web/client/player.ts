// The player of the embed and article pages (docs/web.md "Web front-end"). The server renders a native
// <audio controls> and the text; this script swaps in the custom controls, follows playback through
// the paragraphs' recorded starts (data-start, seconds) and, word by word, through the words' own
// timings (data-s and data-e on each word's span), and gives the lock screen Media Session
// metadata. Without it the page still reads and plays.
import { clock, spokenDuration } from "./lib/time";

const SKIP_SECONDS = 15;

const root = document.querySelector<HTMLElement>("[data-player]");
if (root) setUp(root);

function setUp(root: HTMLElement): void {
  const audio = root.querySelector("audio")!;
  const controls = root.querySelector<HTMLElement>(".controls")!;
  const el = <T extends HTMLElement>(name: string) => root.querySelector<T>(`[data-el="${name}"]`)!;
  const play = root.querySelector<HTMLButtonElement>('[data-action="play"]')!;
  const seek = el<HTMLInputElement>("seek");
  const speed = el<HTMLSelectElement>("speed");
  const status = el<HTMLElement>("status");
  const paragraphs = [...document.querySelectorAll<HTMLElement>("[data-start]")];
  // The player's words in the article's language, from the server's table (workers/web/player-words.ts).
  const words = JSON.parse(root.dataset.words ?? "{}") as Record<"play" | "pause" | "of" | "cannotPlay" | "notLoaded" | "playFromHere", string>;
  const language = root.closest<HTMLElement>("[lang]")?.lang || "en";
  const starts = paragraphs.map((p) => Number(p.dataset.start));
  const scroller = document.querySelector<HTMLElement>("[data-transcript]");
  // Every timed word of the page, in speaking order (the title's first).
  const timed = paragraphs.flatMap((p) => [...p.querySelectorAll<HTMLElement>("[data-s]")]);
  const wordStarts = timed.map((w) => Number(w.dataset.s));
  // A reader who asks for less motion gets jumps instead of smooth scrolling.
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const scrollBehavior = (): ScrollBehavior => (reducedMotion.matches ? "auto" : "smooth");

  audio.controls = false;
  controls.hidden = false;

  const duration = () => (Number.isFinite(audio.duration) ? audio.duration : Number(root.dataset.duration) || 0);
  const showTime = () => {
    const d = duration();
    const t = audio.currentTime;
    el("elapsed").textContent = clock(t);
    el("duration").textContent = clock(d);
    el("remaining").textContent = `-${clock(d - t)}`;
    if (document.activeElement !== seek || !seek.dataset.dragging) {
      seek.max = String(d);
      seek.value = String(t);
    }
    seek.setAttribute("aria-valuetext", `${spokenDuration(t, language)} ${words.of} ${spokenDuration(d, language)}`);
    follow(t);
  };

  const showPlaying = () => {
    const playing = !audio.paused;
    play.setAttribute("aria-label", playing ? words.pause : words.play);
    play.dataset.state = playing ? "playing" : "paused";
    if (navigator.mediaSession) navigator.mediaSession.playbackState = playing ? "playing" : "paused";
  };

  // The paragraph being read: the last whose start has passed. Its highlight moves, and it is
  // scrolled into view inside the transcript box (never the framing page: scrollIntoView would
  // scroll the publisher's page around the iframe too).
  let current = -1;
  function follow(t: number): void {
    followWord(t);
    let i = -1;
    for (let k = 0; k < starts.length && starts[k] <= t + 0.05; k++) i = k;
    if (i === current) return;
    paragraphs[current]?.classList.remove("current");
    paragraphs[current]?.removeAttribute("aria-current");
    current = i;
    const p = paragraphs[i];
    if (!p) return;
    p.classList.add("current");
    p.setAttribute("aria-current", "true");
    if (!audio.paused) reveal(p, scroller ? scroller.clientHeight / 3 : 0);
  }

  // The word being spoken: the last whose start has passed (it stays lit through the pause after it).
  let currentWord = -1;
  function followWord(t: number): void {
    let lo = 0;
    let hi = wordStarts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (wordStarts[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    const i = lo - 1;
    if (i === currentWord) return;
    timed[currentWord]?.classList.remove("current");
    currentWord = i;
    const w = timed[i];
    if (!w) return;
    w.classList.add("current");
    // A long paragraph scrolls on as its words leave the box.
    if (!audio.paused && scroller && !visibleIn(w, scroller)) reveal(w, scroller.clientHeight / 3);
  }

  const visibleIn = (el: HTMLElement, box: HTMLElement) => {
    const a = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    return a.top >= b.top && a.bottom <= b.bottom;
  };

  function reveal(el: HTMLElement, margin: number): void {
    if (scroller && scroller.scrollHeight > scroller.clientHeight) {
      const top = scroller.scrollTop + el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - margin;
      scroller.scrollTo({ top, behavior: scrollBehavior() });
    } else if (!scroller) {
      el.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
    }
  }

  // timeupdate comes about four times a second, slower than words go by: while playing, the
  // highlight follows every frame.
  let frame = 0;
  const tick = () => {
    follow(audio.currentTime);
    frame = audio.paused ? 0 : requestAnimationFrame(tick);
  };
  const startTicking = () => {
    if (!frame) frame = requestAnimationFrame(tick);
  };

  const seekTo = (t: number) => {
    audio.currentTime = Math.min(Math.max(0, t), duration() || t);
    showTime();
  };
  const toggle = () => (audio.paused ? audio.play().catch(() => (status.textContent = words.cannotPlay)) : audio.pause());

  play.addEventListener("click", toggle);
  root.querySelector('[data-action="back"]')!.addEventListener("click", () => seekTo(audio.currentTime - SKIP_SECONDS));
  root.querySelector('[data-action="forward"]')!.addEventListener("click", () => seekTo(audio.currentTime + SKIP_SECONDS));
  seek.addEventListener("pointerdown", () => (seek.dataset.dragging = "1"));
  seek.addEventListener("change", () => {
    delete seek.dataset.dragging;
    seekTo(Number(seek.value));
  });
  seek.addEventListener("input", () => (el("elapsed").textContent = clock(Number(seek.value))));
  speed.addEventListener("change", () => (audio.playbackRate = Number(speed.value)));
  // A paragraph with a recorded start plays from there, and a timed word from that word: by click,
  // or by Enter and Space when focused. The paragraph is one tab stop; within it the left and right
  // arrow keys (Home, End) move the focus word by word, and Escape goes back to the paragraph.
  const playFrom = (t: number) => {
    seekTo(t);
    if (audio.paused) void audio.play().catch(() => undefined);
  };
  // The arrow that points the way the text reads goes to the next word: left in a right-to-left script.
  const rtl = (p: HTMLElement) => getComputedStyle(p).direction === "rtl";
  const forwardKey = (p: HTMLElement) => (rtl(p) ? "ArrowLeft" : "ArrowRight");
  const backwardKey = (p: HTMLElement) => (rtl(p) ? "ArrowRight" : "ArrowLeft");
  paragraphs.forEach((p, i) => {
    p.tabIndex = 0;
    p.title = words.playFromHere;
    const own = [...p.querySelectorAll<HTMLElement>("[data-s]")];
    if (own.length) p.setAttribute("aria-describedby", "text-keys");
    for (const w of own) w.tabIndex = -1;
    p.addEventListener("click", (e) => {
      const word = (e.target as HTMLElement).closest<HTMLElement>("[data-s]");
      playFrom(word ? Number(word.dataset.s) : starts[i]);
    });
    p.addEventListener("keydown", (e) => {
      const at = own.indexOf(document.activeElement as HTMLElement);
      const move = (k: number) => {
        e.preventDefault();
        own[Math.max(0, Math.min(own.length - 1, k))]?.focus();
      };
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        playFrom(at >= 0 ? Number(own[at].dataset.s) : starts[i]);
      } else if (e.key === forwardKey(p) && own.length) move(at + 1);
      else if (e.key === backwardKey(p) && own.length) move(at < 0 ? own.length - 1 : at - 1);
      else if (e.key === "Home" && at >= 0) move(0);
      else if (e.key === "End" && at >= 0) move(own.length - 1);
      else if (e.key === "Escape" && at >= 0) {
        e.preventDefault();
        p.focus();
      }
    });
  });
  for (const type of ["timeupdate", "durationchange", "loadedmetadata", "seeked"]) audio.addEventListener(type, showTime);
  for (const type of ["play", "pause", "ended"]) audio.addEventListener(type, showPlaying);
  audio.addEventListener("play", startTicking);
  audio.addEventListener("ratechange", () => (speed.value = String(audio.playbackRate)));
  audio.addEventListener("error", () => (status.textContent = words.notLoaded));

  // Keyboard shortcuts, as video sites use them: k or Space, j and l, arrows. In the embed the whole
  // frame is the player; on the article page only the player is, so Space still scrolls the text.
  const scope: HTMLElement | Document = document.body.classList.contains("embed") ? document : root;
  scope.addEventListener("keydown", (event) => {
    const e = event as KeyboardEvent;
    const target = e.target as HTMLElement;
    if (e.altKey || e.ctrlKey || e.metaKey || target.closest("input, select, textarea, button, a, [data-start]")) return;
    const keys: Record<string, () => void> = {
      k: toggle,
      " ": toggle,
      j: () => seekTo(audio.currentTime - SKIP_SECONDS),
      l: () => seekTo(audio.currentTime + SKIP_SECONDS),
      ArrowLeft: () => seekTo(audio.currentTime - 5),
      ArrowRight: () => seekTo(audio.currentTime + 5),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  });

  if (navigator.mediaSession && "MediaMetadata" in window) {
    const art = root.dataset.art;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: root.dataset.title ?? document.title,
      artist: root.dataset.publisher ?? "",
      album: "Narration",
      artwork: art ? [{ src: art, sizes: "512x512", type: "image/png" }] : [],
    });
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", () => void audio.play()],
      ["pause", () => audio.pause()],
      ["seekbackward", (d) => seekTo(audio.currentTime - (d.seekOffset ?? SKIP_SECONDS))],
      ["seekforward", (d) => seekTo(audio.currentTime + (d.seekOffset ?? SKIP_SECONDS))],
      ["seekto", (d) => seekTo(d.seekTime ?? audio.currentTime)],
    ];
    for (const [action, handler] of handlers) {
      try {
        navigator.mediaSession.setActionHandler(action, handler);
      } catch {
        // An action this browser does not support.
      }
    }
  }
  // The embed tells the publisher's numbers that it started and that it finished (docs/publishers.md
  // "Listening numbers"): once each per page, with keepalive so a closing frame still sends it.
  const beacon = root.dataset.beacon;
  if (beacon) {
    const send = (event: "start" | "complete") =>
      void fetch(beacon, { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ event }) }).catch(
        () => undefined,
      );
    audio.addEventListener("play", () => send("start"), { once: true });
    audio.addEventListener("ended", () => send("complete"), { once: true });
  }
  showTime();
  showPlaying();
}
