import { articleViewOf } from "../web/article-view";
import { escapeHtml } from "../web/page";
import { bodyParagraphs, headingText, paragraphAttributes, playerOrNotice } from "../web/player-markup";
import { type ArticleRow, database, type JobRow } from "../db/index";
import type { LexiconEntry } from "../kernel/lexicon";
import { VOICES } from "../kernel/voice-catalogue";
import type { AffectedArticle } from "../narration/lexicon-service";
import { type Studio, studioForm, studioShell } from "./layout";
import type { MemberRow } from "./members";
import { articlePath, publisherPath } from "./paths";
import { audioToReview, failureInWords, jobsOf, type Narration, type NarrationFilter, STATE_LABELS, STUDIO_STATES } from "./queries";
import type { Settings } from "./settings";
import type { StudioSignedIn } from "../core/studio-session";

/** The studio's pages as HTML (docs/publishers.md "The studio's pages"); the routes in routes/ serve them. */

const time = (d: Date | null) => (d ? `<time datetime="${d.toISOString()}">${d.toISOString().slice(0, 16).replace("T", " ")} UTC</time>` : "—");
const minutes = (s: number | null) => (s === null ? "—" : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`);
const isEditor = (studio: Studio) => studio.role === "editor";

/** /studio: the publishers the member may open. */
export function homePage(env: object, member: StudioSignedIn, memberships: MemberRow[]): Response {
  const items = memberships
    .map((m) => `<li><a href="${escapeHtml(publisherPath(m.publisher))}">${escapeHtml(m.publisher)}</a> <span class="muted">${escapeHtml(m.role)}</span></li>`)
    .join("");
  return studioShell(env, { title: "Your publishers", member, body: `<ul>${items}</ul>` });
}

const LANGUAGE_NAMES = new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });

/** A language tag as an editor reads it: "German (de)". */
function languageName(tag: string): string {
  try {
    const name = LANGUAGE_NAMES.of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

function listFilter(studio: Studio, current: NarrationFilter, languages: string[]): string {
  const states = [
    `<option value="">Every state</option>`,
    ...STUDIO_STATES.map((s) => `<option value="${s}"${s === current.state ? " selected" : ""}>${STATE_LABELS[s]}</option>`),
  ].join("");
  const spoken = [
    `<option value="">Every language</option>`,
    ...languages.map((l) => `<option value="${escapeHtml(l)}"${l === current.language ? " selected" : ""}>${escapeHtml(languageName(l))}</option>`),
  ].join("");
  return `<form method="get" action="${escapeHtml(publisherPath(studio.publisher))}"><p><label>State <select name="state">${states}</select></label>
<label>Language <select name="language">${spoken}</select></label> <button type="submit">Filter</button></p></form>`;
}

function narrationItem(studio: Studio, n: Narration): string {
  const job = n.job;
  const engine = job?.provider ? `${escapeHtml(job.provider)}${job.fallback ? " (fallback)" : ""}` : "—";
  const failure = failureInWords(job);
  const note = job?.state === "rejected" && job.reviewNote ? `<br>Rejected: ${escapeHtml(job.reviewNote)}` : "";
  return `<li class="narration"><a href="${escapeHtml(articlePath(studio.publisher, n.article.slug))}">${escapeHtml(n.article.title)}</a>
<br><strong data-state="${n.state}">${STATE_LABELS[n.state]}</strong> · <span data-language="${escapeHtml(n.article.language)}">${escapeHtml(languageName(n.article.language))}</span> · voice ${escapeHtml(job?.voice ?? n.article.voice ?? "default")} · engine ${engine} · ${minutes(n.seconds)} · ${time(n.article.createdAt)}${
    failure ? `<br>${escapeHtml(failure)}` : ""
  }${note}</li>`;
}

/** /studio/{publisher}: the narrations, newest first, each with its language, and a filter by state and language. */
export function narrationsPage(env: object, studio: Studio, narrations: Narration[], filter: NarrationFilter, languages: string[]): Response {
  const list = narrations.length ? `<ol class="narrations">${narrations.map((n) => narrationItem(studio, n)).join("")}</ol>` : "<p>No narrations here yet.</p>";
  return studioShell(env, { title: "Narrations", studio, section: "", body: `${listFilter(studio, filter, languages)}${list}` });
}

function voiceOptions(selected: string | null): string {
  return [
    `<option value="">The article's own voice</option>`,
    ...VOICES.map(
      (v) => `<option value="${escapeHtml(v.id)}"${v.id === selected ? " selected" : ""}>${escapeHtml(`${v.id} (${v.provider}, ${v.language})`)}</option>`,
    ),
  ].join("");
}

function jobHistory(jobs: JobRow[]): string {
  if (!jobs.length) return "<p>No render yet.</p>";
  const items = jobs.map((j) => {
    const why = failureInWords(j) ?? (j.reviewNote ? `Rejected: ${j.reviewNote}` : "");
    return `<li>${time(j.createdAt)} · ${escapeHtml(j.state.replace("_", " "))} · voice ${escapeHtml(j.voice ?? "default")}${j.provider ? ` · ${escapeHtml(j.provider)}${j.fallback ? " (fallback)" : ""}` : ""}${
      why ? ` · ${escapeHtml(why)}` : ""
    }</li>`;
  });
  return `<ol>${items.join("")}</ol>`;
}

function reviewForms(studio: Studio, slug: string, waiting: boolean): string {
  if (!waiting) return "";
  if (!isEditor(studio)) return "<p>This narration awaits an editor's review.</p>";
  const release = studioForm(
    studio.member,
    articlePath(studio.publisher, slug, "/release"),
    `<button class="primary" type="submit">Release to listeners</button>`,
  );
  const reject = studioForm(
    studio.member,
    articlePath(studio.publisher, slug, "/reject"),
    `<p><label>Why reject it<br><textarea name="note" required maxlength="2000" rows="3"></textarea></label></p><p><button type="submit">Reject</button></p>`,
  );
  return `<section aria-labelledby="review"><h2 id="review">Review</h2><p>This narration awaits review: no listener hears it until it is released.</p>${release}${reject}</section>`;
}

function rerenderForm(studio: Studio, slug: string): string {
  if (!isEditor(studio)) return "";
  return `<section aria-labelledby="rerender"><h2 id="rerender">Render again</h2>${studioForm(
    studio.member,
    articlePath(studio.publisher, slug, "/rerender"),
    `<p><label>Voice<br><select name="voice">${voiceOptions(null)}</select></label></p><p><button type="submit">Re-render</button></p>`,
  )}</section>`;
}

function chapters(view: Awaited<ReturnType<typeof articleViewOf>>): string {
  const starts = view.paragraphs.filter((p) => p.start !== null);
  if (!starts.length) return "";
  const items = starts.map((p) => `<li>${minutes(Math.round(p.start ?? 0))} ${escapeHtml(p.text.slice(0, 80))}${p.text.length > 80 ? "…" : ""}</li>`).join("");
  return `<section aria-labelledby="chapters"><h2 id="chapters">Chapters</h2><ol>${items}</ol></section>`;
}

/** /studio/{publisher}/articles/{slug}: play with the words highlighted, the text, chapters, history and actions. */
export async function articlePage(env: Env, studio: Studio, article: ArticleRow): Promise<Response> {
  const db = database(env);
  const key = await audioToReview(db, article);
  const src = articlePath(studio.publisher, article.slug, "/audio");
  const view = await articleViewOf(env, article, key ? { key, mp3: src, opus: src } : null);
  const jobs = await jobsOf(db, article.id);
  const waiting = jobs[0]?.state === "awaiting_review";
  const heading = view.paragraphs[0];
  const body = `<p><a href="${escapeHtml(publisherPath(studio.publisher))}">All narrations</a></p>
${playerOrNotice(env, view)}${reviewForms(studio, article.slug, waiting)}
<section aria-labelledby="text"><h2 id="text">Transcript</h2><div class="transcript" data-transcript role="region" aria-label="Article text" tabindex="0">${bodyParagraphs(view)}</div></section>
${chapters(view)}<section aria-labelledby="history"><h2 id="history">Job history</h2>${jobHistory(jobs)}</section>${rerenderForm(studio, article.slug)}`;
  return studioShell(env, {
    title: article.title,
    studio,
    section: "",
    heading: `<h1${heading ? paragraphAttributes(heading, 0) : ""}>${headingText(view)}</h1>`,
    body,
    scripts: view.audio ? ["player.js"] : [],
  });
}

/** /studio/{publisher}/settings. */
export function settingsPage(env: object, studio: Studio, settings: Settings): Response {
  const checked = settings.review_before_release ? " checked" : "";
  const form = isEditor(studio)
    ? studioForm(
        studio.member,
        publisherPath(studio.publisher, "/settings"),
        `<p><label><input type="checkbox" name="review_before_release" value="on"${checked}> Review narrations before release</label></p><p><button class="primary" type="submit">Save</button></p>`,
      )
    : `<p>Review before release is <strong>${settings.review_before_release ? "on" : "off"}</strong>. An editor may change it.</p>`;
  return studioShell(env, {
    title: "Settings",
    studio,
    section: "/settings",
    body: `<p>While review is on, a finished narration waits for an editor and reaches no feed, page, player, search result or agent until it is released.</p>${form}${defaultVoicesSection(studio, settings)}`,
  });
}

/** The languages of the catalogue, each with its voices, for the default voice's choice. */
const VOICES_BY_LANGUAGE = Object.entries(Object.groupBy(VOICES, (o) => o.language)).map(
  ([language, offers]) => [language, [...new Set(offers!.map((o) => o.id))]] as const,
);

/** The settings page's "Default voice per language": the voices set, and an editor's form to set one. */
function defaultVoicesSection(studio: Studio, settings: Settings): string {
  const set = Object.entries(settings.default_voices);
  const list = set.length
    ? `<ul>${set.map(([language, voice]) => `<li><strong lang="${escapeHtml(language)}">${escapeHtml(language)}</strong>: ${escapeHtml(voice)}</li>`).join("")}</ul>`
    : "<p>None set: each language is spoken by the catalogue's best available voice of it.</p>";
  const options = VOICES_BY_LANGUAGE.map(
    ([language, ids]) =>
      `<optgroup label="${escapeHtml(language)}">${ids.map((id) => `<option value="${escapeHtml(id)}">${escapeHtml(id)}</option>`).join("")}</optgroup>`,
  ).join("");
  const form = isEditor(studio)
    ? studioForm(
        studio.member,
        publisherPath(studio.publisher, "/settings"),
        `<input type="hidden" name="part" value="default_voice">
<p><label>Language (BCP 47: de, pt-BR, ar)<br><input name="language" required maxlength="35"></label></p>
<p><label>Voice<br><select name="voice"><option value="">None: the catalogue's best</option>${options}</select></label></p>
<p><button class="primary" type="submit">Set the default voice</button></p>`,
      )
    : "";
  return `<section aria-labelledby="default-voices"><h2 id="default-voices">Default voice per language</h2>
<p>A narration that asks for no voice is spoken by the voice set for its language, before the catalogue's best; when no engine of that voice is available another voice of the same language speaks.</p>${list}${form}</section>`;
}

/** /studio/{publisher}/lexicon: the entries, "hear it", the affected articles and one re-render. */
export function lexiconPage(
  env: object,
  studio: Studio,
  entries: LexiconEntry[],
  affected: AffectedArticle[],
  hear: { text: string; voice: string } | null,
): Response {
  const rows = entries.length
    ? `<ul>${entries.map((e) => `<li><strong>${escapeHtml(e.grapheme)}</strong>${e.phoneme ? ` · /${escapeHtml(e.phoneme)}/` : ""}${e.alias ? ` · said “${escapeHtml(e.alias)}”` : ""}</li>`).join("")}</ul>`
    : "<p>No entries yet: the global lexicon applies.</p>";
  const add = isEditor(studio)
    ? `<section aria-labelledby="add"><h2 id="add">Add an entry</h2>${studioForm(
        studio.member,
        publisherPath(studio.publisher, "/lexicon"),
        `<p><label>Word or name<br><input name="grapheme" required maxlength="100"></label></p>
<p><label>Say it as (words)<br><input name="alias" maxlength="200"></label></p>
<p><label>Or as IPA<br><input name="phoneme" maxlength="200"></label></p><p><button class="primary" type="submit">Add</button></p>`,
      )}</section>`
    : "";
  const player = hear
    ? `<p><audio controls autoplay src="${escapeHtml(`${publisherPath(studio.publisher, "/lexicon/preview")}?${new URLSearchParams(hear)}`)}"></audio></p>`
    : "";
  const hearIt = `<section aria-labelledby="hear"><h2 id="hear">Hear it</h2><form method="get" action="${escapeHtml(publisherPath(studio.publisher, "/lexicon"))}">
<p><label>A sentence<br><input name="text" required maxlength="500" value="${escapeHtml(hear?.text ?? "")}"></label></p>
<p><label>Voice<br><select name="voice">${voiceOptions(hear?.voice || null)}</select></label></p><p><button type="submit">Hear it</button></p></form>${player}</section>`;
  const list = affected.length
    ? `<ul>${affected.map((a) => `<li><a href="${escapeHtml(articlePath(studio.publisher, a.slug))}">${escapeHtml(a.title)}</a> · ${escapeHtml(a.graphemes.join(", ") || "an entry was removed")}${a.rendering ? " · rendering" : ""}</li>`).join("")}</ul>`
    : "<p>No narration differs from what the lexicon now says.</p>";
  const rerender =
    affected.length && isEditor(studio)
      ? studioForm(studio.member, publisherPath(studio.publisher, "/lexicon/rerender"), `<p><button type="submit">Re-render the affected articles</button></p>`)
      : "";
  return studioShell(env, {
    title: "Lexicon",
    studio,
    section: "/lexicon",
    body: `<section aria-labelledby="entries"><h2 id="entries">Entries</h2>${rows}</section>${add}${hearIt}<section aria-labelledby="affected"><h2 id="affected">Affected articles</h2><p>Their audio was made before the lexicon said what it says now; a re-render renders only their changed paragraphs.</p>${list}${rerender}</section>`,
  });
}
