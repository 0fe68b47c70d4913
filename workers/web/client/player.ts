// The player of the embed and article pages (README "Web front-end"). The server renders a native
// <audio controls> and the text; this script swaps in the custom controls, follows playback through
// the paragraphs' recorded starts (data-start, seconds) and gives the lock screen Media Session
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
  const starts = paragraphs.map((p) => Number(p.dataset.start));
  const scroller = document.querySelector<HTMLElement>("[data-transcript]");

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
    seek.setAttribute("aria-valuetext", `${spokenDuration(t)} of ${spokenDuration(d)}`);
    follow(t);
  };

  const showPlaying = () => {
    const playing = !audio.paused;
    play.setAttribute("aria-label", playing ? "Pause" : "Play");
    play.dataset.state = playing ? "playing" : "paused";
    if (navigator.mediaSession) navigator.mediaSession.playbackState = playing ? "playing" : "paused";
  };

  // The paragraph being read: the last whose start has passed. Its highlight moves, and it is
  // scrolled into view inside the transcript box (never the framing page: scrollIntoView would
  // scroll the publisher's page around the iframe too).
  let current = -1;
  function follow(t: number): void {
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
    if (audio.paused) return;
    if (scroller && scroller.scrollHeight > scroller.clientHeight) {
      const top = p.offsetTop - scroller.offsetTop - scroller.clientHeight / 3;
      scroller.scrollTo({ top, behavior: "smooth" });
    } else if (!scroller) {
      p.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
  }

  const seekTo = (t: number) => {
    audio.currentTime = Math.min(Math.max(0, t), duration() || t);
    showTime();
  };
  const toggle = () => (audio.paused ? audio.play().catch(() => (status.textContent = "This audio cannot play here.")) : audio.pause());

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
  // A paragraph with a recorded start plays from there: by click, or Enter and Space when focused.
  paragraphs.forEach((p, i) => {
    p.tabIndex = 0;
    p.title = "Play from here";
    const go = () => {
      seekTo(starts[i]);
      if (audio.paused) void audio.play().catch(() => undefined);
    };
    p.addEventListener("click", go);
    p.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        go();
      }
    });
  });
  for (const type of ["timeupdate", "durationchange", "loadedmetadata", "seeked"]) audio.addEventListener(type, showTime);
  for (const type of ["play", "pause", "ended"]) audio.addEventListener(type, showPlaying);
  audio.addEventListener("ratechange", () => (speed.value = String(audio.playbackRate)));
  audio.addEventListener("error", () => (status.textContent = "The audio could not be loaded."));

  // Keyboard shortcuts anywhere in the player, as video sites use them: k or Space, j and l, arrows.
  document.addEventListener("keydown", (e) => {
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
  showTime();
  showPlaying();
}
