// Any article by its link, as a listener does it (docs/listeners.md "Add a link"): in Debian's Chromium
// a listener signs in, pastes a page's address into "Add a link" on the queue page, and shares another
// page to the installed web app (its share target, /listen/share); both pages come from a real web site
// on loopback (scripts/links-site.mjs), are narrated, and arrive in the private feed, which a podcast
// parser reads. axe-core checks every page at 390 and 1280 px. `npm run test:browser` (PORT moves it, default 8809).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { parseFeed } from "podcast-partytime";
import { launchBrowser } from "../scripts/browser.mjs";
import { startLinksSite } from "../scripts/links-site.mjs";
import { checkEverywhere } from "./support/axe.mjs";
import { mailTo } from "./support/outbox.mjs";
import { startPlatform } from "./support/platform.mjs";

const PORT = Number(process.env.PORT ?? 8809);
const STATE = ".wrangler/browser-test-links-state";
const NARRATED_MS = 120_000;

let platform;
let site;

/** A page of the loopback site. */
const sitePage = (path) => `${site.url}${path}`;
let browser;

before(async () => {
  // WEB_URL on this machine: the guarded fetcher reaches loopback pages, as under `npm start`; one page is German.
  platform = await startPlatform(PORT, STATE, {}, { languages: true });
  site = await startLinksSite();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.close();
  platform?.child.kill();
});

/** Subscribes `email` on /listen and signs in by the mailed link; the page is then on /listen, signed in. */
async function signedIn(page, email) {
  const base = platform.base;
  await page.goto(`${base}/listen`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("checkbox", { name: "Science" }).check();
  await page.getByRole("button", { name: "Subscribe" }).click();
  await page.getByText("We mailed a sign-in link").waitFor();
  const link = /http:\/\/127\.0\.0\.1:\d+\/sign-in\/confirm\?\S+/.exec((await mailTo(base, email)).text)[0];
  await page.goto(link);
  await page.getByRole("button", { name: "Continue signing in" }).click();
  await page.getByRole("heading", { name: "Your private feed" }).waitFor();
}

/** The private feed, read by a podcast parser once it lists every title in `titles` with its audio. */
async function feedWith(feedUrl, titles) {
  for (const until = Date.now() + NARRATED_MS; ; ) {
    const feed = parseFeed(await (await fetch(feedUrl)).text());
    const narrated = feed?.items.filter((item) => titles.includes(item.title) && item.enclosure?.url);
    if (narrated?.length === titles.length) return feed;
    if (Date.now() > until) throw new Error(`the private feed lists ${JSON.stringify(feed?.items.map((i) => i.title))}, not all of ${titles}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

test("a listener adds a page by pasting its link and another by sharing it; both are narrated into the private feed", async () => {
  const base = platform.base;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signedIn(page, "links-browser@example.test");
  const feedUrl = await page.locator("#feed-url").inputValue();

  // Pasted into "Add a link" on the queue page.
  await page.getByRole("link", { name: "Queue" }).click();
  await page.getByRole("heading", { name: "Add a link" }).waitFor();
  await checkEverywhere(page, "/listen/queue with the link form");
  await page.getByLabel("Article address").fill(sitePage("/news/harbour-ferries-wind"));
  await page.getByRole("button", { name: "Add to my feed" }).click();
  await page.getByText("The page is added").waitFor();
  await page.getByText("Harbour ferries return to wind power").first().waitFor();
  await checkEverywhere(page, "/listen/queue after adding a link");

  // A page the listener cannot use says why, and adds nothing.
  await page.getByLabel("Article address").fill(sitePage("/"));
  await page.getByRole("button", { name: "Add to my feed" }).click();
  await page.getByText(/This page cannot be added: .*does not look like an article/).waitFor();

  // Shared from another app: the installed web app's share target opens /listen/share with it.
  const manifest = await (await fetch(`${base}/manifest.webmanifest`)).json();
  assert.equal(manifest.share_target.action, "/listen/share");
  const { params } = manifest.share_target;
  const shared = new URL(manifest.share_target.action, base);
  // Android puts the address in `text`, with words around it.
  shared.searchParams.set(params.title, "Warum ich wieder Briefe schreibe");
  shared.searchParams.set(params.text, `Lies das: ${sitePage("/blog/briefe")}`);
  await page.goto(shared.href);
  assert.equal(await page.getByLabel("Article address").inputValue(), sitePage("/blog/briefe"));
  await checkEverywhere(page, "/listen/share");
  await page.getByRole("button", { name: "Add to my feed" }).click();
  await page.getByText("The page is added").waitFor();
  await page.getByText("Warum ich wieder Briefe schreibe").first().waitFor();

  // Both narrated into the private feed, each with the page as its link.
  const feed = await feedWith(feedUrl, ["Harbour ferries return to wind power", "Warum ich wieder Briefe schreibe"]);
  const item = (title) => feed.items.find((i) => i.title === title);
  assert.equal(item("Harbour ferries return to wind power").link, sitePage("/news/harbour-ferries-wind"));
  assert.equal(item("Warum ich wieder Briefe schreibe").link, sitePage("/blog/briefe"));
  const audio = await fetch(item("Warum ich wieder Briefe schreibe").enclosure.url);
  assert.equal(audio.status, 200);
  assert.match(audio.headers.get("content-type"), /^audio\/mpeg/);
  await context.close();
});
