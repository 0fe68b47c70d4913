// The view of get_audio_url (resource ui://narration/player, docs/agents/apps.md "A player inside the chat"): the
// embed player in the chat. Title and publisher (get_article, through the host), the audio with its speed,
// and the transcript lit word by word as it plays. A result still rendering (state pending) is awaited by
// calling get_audio_url again through the host, with the wait shown, and plays as soon as the audio exists.
import { type AudioAnswer, answerOf, renderedAudio, ToolFailed } from "./lib/audio";
import { connectToHost, type Host } from "./lib/host";
import { apiBase, element, renderingStatus, speedControl, webAddress } from "./lib/page";
import { follow, layOut, transcriptWords } from "./lib/transcript";

/** What get_article answers, as far as the player reads it. */
interface Article {
  title: string;
  publisher: string;
  body_text: string | null;
}

const main = document.querySelector("main")!;
const heading = main.appendChild(element("h1", "", "Narration"));
const publisher = main.appendChild(element("p", "publisher"));
const audio = element("audio");
audio.controls = true;
audio.preload = "metadata";
const controls = main.appendChild(element("div", "player"));
controls.append(audio, speedControl(audio));
controls.hidden = true;
const status = main.appendChild(element("p", "status"));
status.setAttribute("role", "status");
const waiting = main.appendChild(element("progress"));
waiting.hidden = true;
const transcript = main.appendChild(element("div", "transcript"));
transcript.setAttribute("role", "region");
transcript.setAttribute("aria-label", "Article text");
transcript.tabIndex = 0;
transcript.hidden = true;

/** The article's title, publisher and timed text. */
async function showArticle(host: Host, slug: string): Promise<void> {
  const article = answerOf<Article>(await host.callTool("get_article", { slug }));
  heading.textContent = article.title;
  publisher.textContent = article.publisher;
  document.title = `${article.title} · ${article.publisher}`;
  const words = await transcriptWords(apiBase(), slug);
  // Without a public transcript (a private article) the text shows as it is, without timings.
  if (words) follow(audio, transcript, layOut(heading, transcript, article.title, article.body_text ?? "", words));
  else transcript.replaceChildren(...(article.body_text ?? "").split(/\n\s*\n/).map((text) => element("p", "", text.trim())));
  transcript.hidden = !transcript.textContent;
}

/** Plays `answer`'s audio; `now`: start it at once (the listener's wait is over). */
function play(answer: AudioAnswer, now: boolean): void {
  const url = webAddress(answer.audio_url);
  if (!url) {
    status.textContent = "The narration could not be loaded.";
    return;
  }
  audio.src = url;
  controls.hidden = false;
  status.textContent = "";
  if (now) void audio.play().catch(() => (status.textContent = "Press play to listen."));
}

/** Shows the tool's result: the audio, or the wait for its render. */
async function show(host: Host, answer: AudioAnswer): Promise<void> {
  const article = showArticle(host, answer.slug).catch(() => undefined);
  if (answer.state === "ready" && answer.audio_url) play(answer, false);
  else {
    waiting.hidden = false;
    const ready = await renderedAudio(host, answer.slug, (s) => (status.textContent = renderingStatus(s))).finally(() => (waiting.hidden = true));
    // The transcript exists once the audio does: read it again now.
    await article;
    await showArticle(host, answer.slug).catch(() => undefined);
    play(ready, true);
  }
}

const failed = (err: unknown) => (status.textContent = err instanceof ToolFailed ? `Not available: ${err.message}` : "The narration could not be loaded.");

// The host sends the result only after the handshake (ui/notifications/initialized), so `host` is there by then.
const host: Promise<Host> = connectToHost({
  toolResult(result) {
    try {
      const answer = answerOf<AudioAnswer>(result);
      void host.then((h) => show(h, answer)).catch(failed);
    } catch (err) {
      failed(err);
    }
  },
  toolCancelled: () => (status.textContent = "The call was cancelled."),
});
