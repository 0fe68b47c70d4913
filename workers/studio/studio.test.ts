import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { adminHeaders, call, jsonBody } from "../../test/support/client";
import { forgetEdgeCache, mp3Bytes, PUBLIC_FEED_PATHS } from "../../test/support/feeds";
import { readOutbox, waitForOutbox } from "../../test/support/listeners";
import { Browser, hiddenField } from "../../test/support/oauth-agent";
import { finishJob } from "../../test/support/render-store";
import { studioBrowser } from "../../test/support/studio";
import { testVars } from "../../test/vars";
import { sha256Hex } from "../core/crypto";
import { audioObjects, database, renderJobs } from "../db/index";
import { audioObjectPath } from "../kernel/audio-objects";
import { issuePublisherKey } from "../kernel/publisher-keys";

/** The publishers' studio (issue 43 items 1-4): members, sign-in, review before release, the lexicon preview. */

const WEB = new URL(testVars.WEB_URL);
const PUBLISHER = "Harbour Gazette";
const P = encodeURIComponent(PUBLISHER);

async function addMember(email: string, role: "editor" | "viewer", publisher = PUBLISHER) {
  const res = await call(`/v1/admin/publishers/${encodeURIComponent(publisher)}/members`, jsonBody("POST", { email, role }, adminHeaders));
  expect(res.status).toBe(201);
}

/** The studio sign-in link mailed to `email` after `browser` asked for it. */
async function askForLink(browser: Browser, email: string): Promise<URL> {
  const before = (await readOutbox()).length;
  expect((await browser.post("/studio/sign-in", { email, next: "/studio" })).status).toBe(200);
  const [mail] = await waitForOutbox(before + 1);
  expect(mail.to).toBe(email);
  return new URL(new RegExp(`${WEB.origin}/studio/sign-in/confirm\\?\\S+`).exec(mail.text)![0]);
}

/** A browser signed in to the studio as `email`. */
async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser();
  const link = await askForLink(browser, email);
  const confirm = await (await browser.get(link)).text();
  const done = await browser.post("/studio/sign-in/confirm", { magic: hiddenField(confirm, "magic"), next: hiddenField(confirm, "next") });
  expect(done.status).toBe(303);
  expect(done.headers.get("Location")).toBe("/studio");
  return browser;
}

/** The form token of a studio page the browser opens. */
async function csrfOf(browser: Browser, path: string): Promise<string> {
  const page = await browser.get(`${WEB.origin}${path}`);
  expect(page.status).toBe(200);
  return hiddenField(await page.text(), "csrf");
}

/** A public article of the publisher whose render just finished, as the render Worker reports it; its job and audio key. */
async function finishedRender(slug: string) {
  const article = await addArticle({ slug, publisher: PUBLISHER, title: `Story ${slug}`, host: "news", bodyText: "The tide comes in twice a day." });
  const key = await sha256Hex(`audio-of-${slug}`);
  const bytes = mp3Bytes(4096, article.id);
  await env.AUDIO.put(audioObjectPath(key, "mp3"), bytes, { httpMetadata: { contentType: "audio/mpeg" } });
  await database(env).insert(audioObjects).values({ key, provider: "offline", voice: "en-US-female", durationSeconds: 75, mp3Bytes: bytes.length });
  const jobId = crypto.randomUUID();
  await database(env).insert(renderJobs).values({ id: jobId, articleId: article.id });
  await finishJob(jobId, { key, duration_seconds: 75, characters_synthesized: 30 });
  return { article, jobId, key };
}

async function serviceFeed(): Promise<string> {
  await forgetEdgeCache(PUBLIC_FEED_PATHS);
  return (await call("/v1/podcasts/service.xml")).text();
}

async function publisherKey(publisher = PUBLISHER): Promise<Record<string, string>> {
  return { Authorization: `Bearer ${(await issuePublisherKey(env, publisher)).key}` };
}

describe("members (admin API)", () => {
  it("adds, lists, changes and removes members with the admin token only", async () => {
    const path = `/v1/admin/publishers/${P}/members`;
    expect((await call(path, jsonBody("POST", { email: "ed@example.test", role: "editor" }))).status).toBe(401);
    await addMember("Ed@Example.test", "editor");
    await addMember("vi@example.test", "viewer");
    await addMember("vi@example.test", "editor");
    const list = await (await call(path, { headers: adminHeaders })).json<{ members: { email: string; role: string }[] }>();
    expect(list.members.map((m) => [m.email, m.role])).toEqual([
      ["ed@example.test", "editor"],
      ["vi@example.test", "editor"],
    ]);
    expect((await call(path, jsonBody("POST", { email: "x@example.test", role: "owner" }, adminHeaders))).status).toBe(422);
    expect((await call(`${path}/vi%40example.test`, { method: "DELETE", headers: adminHeaders })).status).toBe(204);
    expect((await call(`${path}/vi%40example.test`, { method: "DELETE", headers: adminHeaders })).status).toBe(404);
  });
});

describe("studio sign-in (magic link bound to the browser that asked)", () => {
  it("signs a member in and lands on /studio, which lists their publishers", async () => {
    await addMember("ed@example.test", "editor");
    const browser = await signedIn("ed@example.test");
    const home = await browser.get(`${WEB.origin}/studio`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(`href="/studio/${P}"`);
  });

  it("mails nothing to an address that is no member, with the same answer", async () => {
    const before = (await readOutbox()).length;
    const res = await new Browser().post("/studio/sign-in", { email: "stranger@example.test", next: "/studio" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("If <strong>stranger@example.test</strong> is a member");
    await new Promise((r) => setTimeout(r, 200));
    expect((await readOutbox()).length).toBe(before);
  });

  it("refuses the link in another browser, and a second use in the browser that asked", async () => {
    await addMember("ed@example.test", "editor");
    const owner = new Browser();
    const link = await askForLink(owner, "ed@example.test");
    const magic = link.searchParams.get("magic")!;
    const thief = new Browser();
    expect((await thief.get(link)).status).toBe(403);
    expect((await thief.post("/studio/sign-in/confirm", { magic, next: "/studio" })).status).toBe(403);
    thief.cookies.set("__Host-sign-in", "A".repeat(43));
    expect((await thief.post("/studio/sign-in/confirm", { magic, next: "/studio" })).status).toBe(404);
    expect(thief.cookies.has("__Host-studio")).toBe(false);
    expect((await owner.post("/studio/sign-in/confirm", { magic, next: "/studio" })).status).toBe(303);
    const again = new Browser();
    again.cookies.set("__Host-sign-in", owner.cookies.get("__Host-sign-in")!);
    expect((await again.post("/studio/sign-in/confirm", { magic, next: "/studio" })).status).toBe(410);
  });

  it("does not take a listener's sign-in link, nor a studio link at the listeners' sign-in", async () => {
    await addMember("ed@example.test", "editor");
    const owner = new Browser();
    const link = await askForLink(owner, "ed@example.test");
    const listener = await owner.post("/sign-in/confirm", { magic: link.searchParams.get("magic")!, next: "/listen" });
    expect(listener.headers.get("Location")).toBeNull();
    expect(owner.cookies.has("__Host-session")).toBe(false);
  });

  it("sends a browser without a session to the studio's sign-in, and refuses a cross-site form", async () => {
    const res = await call(`${WEB.origin}/studio/${P}`, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/studio/sign-in?next=${encodeURIComponent(`/studio/${P}`)}`);
    await addMember("ed@example.test", "editor");
    const browser = await signedIn("ed@example.test");
    const csrf = await csrfOf(browser, `/studio/${P}/settings`);
    expect((await browser.post(`/studio/${P}/settings`, { csrf, review_before_release: "on" }, "https://evil.example")).status).toBe(403);
    expect((await browser.post(`/studio/${P}/settings`, { csrf: "forged", review_before_release: "on" })).status).toBe(403);
    const settings = await (await browser.get(`${WEB.origin}/studio/${P}/settings`)).text();
    expect(settings).not.toContain("checked");
  });

  it("shows another publisher's studio to no member of it (404)", async () => {
    await addMember("ed@example.test", "editor");
    await addMember("other@example.test", "editor", "Other Daily");
    const browser = await signedIn("ed@example.test");
    expect((await browser.get(`${WEB.origin}/studio/Other%20Daily`)).status).toBe(404);
  });
});

describe("the narrations list", () => {
  it("shows each narration's language and filters by it, with the state", async () => {
    await addArticle({ slug: "tides-en", publisher: PUBLISHER, title: "Tides", language: "en" });
    await addArticle({ slug: "gezeiten", publisher: PUBLISHER, title: "Gezeiten", language: "de" });
    await addArticle({ slug: "marees", publisher: "Other Daily", title: "Marées", language: "fr" });
    const member = await studioBrowser(PUBLISHER, "vi@example.test", "viewer");
    const all = await (await member.get(`/studio/${P}`)).text();
    expect(all).toContain('<span data-language="de">German (de)</span>');
    expect(all).toContain('<span data-language="en">English (en)</span>');
    // The filter offers the publisher's languages only.
    expect(all).toContain('<option value="de">German (de)</option>');
    expect(all).not.toContain('value="fr"');
    const german = await (await member.get(`/studio/${P}?language=de`)).text();
    expect(german).toContain(">Gezeiten</a>");
    expect(german).not.toContain(">Tides</a>");
    expect(german).toContain('<option value="de" selected>');
    expect(await (await member.get(`/studio/${P}?language=de&state=failed`)).text()).toContain("No narrations here yet.");
    // A language the publisher has none of narrows nothing.
    expect(await (await member.get(`/studio/${P}?language=fr`)).text()).toContain(">Tides</a>");
  });
});

describe("review before release", () => {
  it("is off by default: a finished render is done and in the feed at once", async () => {
    const { jobId, article } = await finishedRender("no-review");
    const job = await database(env).query.renderJobs.findFirst({ where: eq(renderJobs.id, jobId) });
    expect(job?.state).toBe("done");
    expect(await serviceFeed()).toContain(article.slug);
  });

  it("holds a finished render from every surface until released by the publisher's key", async () => {
    const key = await publisherKey();
    const on = await call(`/v1/publishers/${P}/settings`, jsonBody("PATCH", { review_before_release: true }, key));
    expect(await on.json()).toEqual({ publisher: PUBLISHER, review_before_release: true, default_voices: {} });
    const { article, jobId, key: audio } = await finishedRender("held-story");
    const job = await (await call(`/v1/jobs/${jobId}`, { headers: { "x-service-key": testVars.SERVICE_API_KEY } })).json<{
      state: string;
      audio_url: string | null;
    }>();
    expect(job).toMatchObject({ state: "awaiting_review", audio_url: null });
    // Feed, audio path, the article's audio, the article page and search give nothing to a listener.
    expect(await serviceFeed()).not.toContain(article.slug);
    expect((await call(`/v1/audio/${audio}.mp3`)).status).toBe(404);
    const state = await (await call(`/v1/articles/${article.slug}/audio`)).json<{ audio_url?: string | null }>();
    expect(state.audio_url ?? null).toBeNull();
    const page = await (await call(`${WEB.origin}/articles/${article.slug}`)).text();
    expect(page).not.toContain(audio);
    const record = await (await call(`/v1/articles/${article.slug}`)).text();
    expect(record).not.toContain(audio);
    // ... but the publisher's own key fetches it.
    expect((await call(`/v1/audio/${audio}.mp3`, { headers: key })).status).toBe(200);
    // Another publisher's key can neither release it nor change these settings.
    const other = await publisherKey("Other Daily");
    expect((await call(`/v1/publishers/${P}/articles/${article.slug}/release`, { method: "POST", headers: other })).status).toBe(404);
    expect((await call(`/v1/publishers/${P}/settings`, jsonBody("PATCH", { review_before_release: false }, other))).status).toBe(404);
    const released = await call(`/v1/publishers/${P}/articles/${article.slug}/release`, { method: "POST", headers: key });
    expect(await released.json()).toMatchObject({ slug: article.slug, job_id: jobId, state: "done" });
    expect(await serviceFeed()).toContain(article.slug);
    expect((await call(`/v1/audio/${audio}.mp3`)).status).toBe(200);
    expect((await call(`/v1/publishers/${P}/articles/${article.slug}/release`, { method: "POST", headers: key })).status).toBe(409);
  });

  it("keeps a rejected render out, with its note", async () => {
    const key = await publisherKey();
    await call(`/v1/publishers/${P}/settings`, jsonBody("PATCH", { review_before_release: true }, key));
    const { article, key: audio } = await finishedRender("rejected-story");
    expect((await call(`/v1/publishers/${P}/articles/${article.slug}/reject`, jsonBody("POST", { note: "" }, key))).status).toBe(422);
    const res = await call(`/v1/publishers/${P}/articles/${article.slug}/reject`, jsonBody("POST", { note: "Say Nguyen right" }, key));
    expect(await res.json()).toMatchObject({ state: "rejected", note: "Say Nguyen right" });
    expect(await serviceFeed()).not.toContain(article.slug);
    expect((await call(`/v1/audio/${audio}.mp3`)).status).toBe(404);
  });

  it("lets an editor release in the studio, and refuses a viewer (403)", async () => {
    await addMember("ed@example.test", "editor");
    await addMember("vi@example.test", "viewer");
    const editor = await signedIn("ed@example.test");
    const csrf = await csrfOf(editor, `/studio/${P}/settings`);
    expect((await editor.post(`/studio/${P}/settings`, { csrf, review_before_release: "on" })).status).toBe(303);
    const { article } = await finishedRender("studio-story");
    const list = await (await editor.get(`${WEB.origin}/studio/${P}?state=awaiting_review`)).text();
    expect(list).toContain(article.title);
    expect(list).toContain('data-state="awaiting_review"');
    const page = await (await editor.get(`${WEB.origin}/studio/${P}/articles/${article.slug}`)).text();
    expect(page).toContain(`/studio/${P}/articles/${article.slug}/audio`);
    const audio = await editor.get(`${WEB.origin}/studio/${P}/articles/${article.slug}/audio`);
    expect(audio.headers.get("Content-Type")).toBe("audio/mpeg");

    const viewer = await signedIn("vi@example.test");
    const viewerCsrf = await csrfOf(viewer, `/studio/${P}/articles/${article.slug}`);
    expect((await viewer.post(`/studio/${P}/articles/${article.slug}/release`, { csrf: viewerCsrf })).status).toBe(403);
    expect(await serviceFeed()).not.toContain(article.slug);

    expect((await editor.post(`/studio/${P}/articles/${article.slug}/release`, { csrf })).status).toBe(303);
    expect(await serviceFeed()).toContain(article.slug);
  });
});

describe("default voice per language on the settings page", () => {
  it("an editor sets one checked as the API checks it, without touching review; the page lists it", async () => {
    await addMember("voices@example.test", "editor");
    const editor = await signedIn("voices@example.test");
    const key = await publisherKey();
    await call(`/v1/publishers/${P}/settings`, jsonBody("PATCH", { review_before_release: true }, key));
    const csrf = await csrfOf(editor, `/studio/${P}/settings`);
    const set = await editor.post(`/studio/${P}/settings`, { csrf, part: "default_voice", language: "de", voice: "de-male" });
    expect(set.status).toBe(303);
    // An English voice for German is refused, and nothing changes.
    expect((await editor.post(`/studio/${P}/settings`, { csrf, part: "default_voice", language: "de", voice: "nova" })).status).toBe(422);
    const settings = await (await call(`/v1/publishers/${P}/settings`, jsonBody("PATCH", {}, key))).json();
    expect(settings).toEqual({ publisher: PUBLISHER, review_before_release: true, default_voices: { de: "de-male" } });
    const page = await (await editor.get(`${WEB.origin}/studio/${P}/settings`)).text();
    expect(page).toContain('<strong lang="de">de</strong>: de-male');
  });
});

describe("roles and re-rendering", () => {
  it("re-renders in another voice for an editor, and refuses every editor's action to a viewer (403)", async () => {
    await addMember("ed@example.test", "editor");
    await addMember("vi@example.test", "viewer");
    const article = await addArticle({ slug: "voices", publisher: PUBLISHER });
    const editor = await signedIn("ed@example.test");
    const csrf = await csrfOf(editor, `/studio/${P}/articles/voices`);
    expect((await editor.post(`/studio/${P}/articles/voices/rerender`, { csrf, voice: "no-such-voice" })).status).toBe(422);
    expect((await editor.post(`/studio/${P}/articles/voices/rerender`, { csrf, voice: "en-US-male" })).status).toBe(303);
    const jobs = await database(env).select().from(renderJobs).where(eq(renderJobs.articleId, article.id));
    expect(jobs.map((j) => [j.state, j.voice])).toEqual([["queued", "en-US-male"]]);

    const viewer = await signedIn("vi@example.test");
    const token = await csrfOf(viewer, `/studio/${P}/articles/voices`);
    for (const [path, fields] of [
      [`/studio/${P}/articles/voices/rerender`, {}],
      [`/studio/${P}/articles/voices/reject`, { note: "no" }],
      [`/studio/${P}/settings`, { review_before_release: "on" }],
      [`/studio/${P}/lexicon`, { grapheme: "Nguyen", alias: "win" }],
      [`/studio/${P}/lexicon/rerender`, {}],
    ] as const) {
      expect((await viewer.post(path, { csrf: token, ...fields })).status, path).toBe(403);
    }
    expect(await database(env).select().from(renderJobs).where(eq(renderJobs.articleId, article.id))).toHaveLength(1);
  });

  it("ends a removed member's access at their next request", async () => {
    await addMember("ed@example.test", "editor");
    const editor = await signedIn("ed@example.test");
    expect((await editor.get(`${WEB.origin}/studio/${P}`)).status).toBe(200);
    expect((await call(`/v1/admin/publishers/${P}/members/ed%40example.test`, { method: "DELETE", headers: adminHeaders })).status).toBe(204);
    const after = await editor.get(`${WEB.origin}/studio/${P}`);
    expect(after.status).toBe(303);
    expect(after.headers.get("Location")).toMatch(/^\/studio\/sign-in\?/);
  });
});

describe("pronunciation by ear", () => {
  it("speaks a sentence through the publisher's lexicon as MP3 (publisher key), and the studio's hear-it player plays it", async () => {
    const key = await publisherKey();
    const body = (text: string) => jsonBody("POST", { text }, key);
    expect((await call(`/v1/publishers/${P}/lexicon/preview`, body(""))).status).toBe(422);
    expect((await call(`/v1/publishers/Other%20Daily/lexicon/preview`, body("Hello."))).status).toBe(404);
    const res = await call(`/v1/publishers/${P}/lexicon/preview`, body("Nguyen wrote this."));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("audio/mpeg");
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    await addMember("ed@example.test", "editor");
    const editor = await signedIn("ed@example.test");
    const csrf = await csrfOf(editor, `/studio/${P}/lexicon`);
    expect((await editor.post(`/studio/${P}/lexicon`, { csrf, grapheme: "Nguyen", alias: "win" })).status).toBe(303);
    const page = await (await editor.get(`${WEB.origin}/studio/${P}/lexicon?text=Nguyen+wrote.`)).text();
    expect(page).toContain("<strong>Nguyen</strong>");
    const src = /<audio controls autoplay src="([^"]+)"/.exec(page)![1].replace(/&amp;/g, "&");
    const heard = await editor.get(`${WEB.origin}${src}`);
    expect(heard.headers.get("Content-Type")).toBe("audio/mpeg");
  });
});
