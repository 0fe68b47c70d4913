// The listener's pages in a real browser (docs/listeners.md "Listener pages"): Debian's Chromium, driven by
// playwright-core, subscribes, signs in with the mailed link from the local outbox, changes verticals,
// copies the private feed URL, reorders a flo block by drag and drop and finds the order after a
// reload, and deletes the account; axe-core checks every page on the way. Runs against the platform
// under wrangler dev: `npm run test:browser` (PORT moves it, default 8803).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { executeSql } from "../scripts/local.mjs";
import { seedArticles } from "../scripts/seed.mjs";
import { checkEverywhere } from "./support/axe.mjs";
import { startFramingSite, startPlatform } from "./support/platform.mjs";
import { launchBrowser } from "../scripts/browser.mjs";
import { mailTo } from "./support/outbox.mjs";

const PORT = Number(process.env.PORT ?? 8803);
const STATE = ".wrangler/browser-test-listener-state";

let platform;
let browser;

const sqlText = (value) => `'${String(value).replaceAll("'", "''")}'`;

/**
 * The demo articles of `vertical`, written straight into the platform's local D1. Not through the
 * publish webhook: that renders their audio at once, and in wrangler dev the render
 * Worker's engine then holds the pages for tens of seconds. The pages need the articles, not the audio.
 */
function addArticles(vertical) {
  const chosen = seedArticles().filter((a) => a.vertical === vertical);
  const rows = chosen.map(
    (a, i) =>
      `(${[a.slug, a.title, a.publisher, a.vertical, a.summary, a.body_text, `browser-test-${i}`].map(sqlText).join(", ")}, ${Date.parse(a.published_at)})`,
  );
  executeSql(STATE, `INSERT INTO articles (slug, title, publisher, vertical, summary, body_text, content_hash, created_at) VALUES ${rows.join(",\n")};`);
  return chosen;
}

let science;

before(async () => {
  platform = await startPlatform(PORT, STATE);
  science = addArticles("science");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  platform?.child.kill();
});

/** The hrefs of the podcast-app buttons on `page`, by the app's name. */
function appLinks(page) {
  return page.locator("ul.apps a").evaluateAll((as) => Object.fromEntries(as.map((a) => [a.firstChild.textContent.trim(), a.getAttribute("href")])));
}

/** What every podcast-app button of a feed at `feedUrl` must open (written out: kernel/public-urls.ts is their source). */
function expectedApps(feedUrl) {
  const bare = feedUrl.replace(/^https?:\/\//, "");
  return {
    "Apple Podcasts": `podcast://${bare}`,
    Overcast: `overcast://x-callback-url/add?url=${encodeURIComponent(feedUrl)}`,
    "Pocket Casts": `pktc://subscribe/${bare}`,
    Castro: `castro://subscribe/${bare}`,
    AntennaPod: `antennapod-subscribe://${bare}`,
    "Podcast Addict": `podcastaddict://${bare}`,
    "Other app": `feed://${bare}`,
  };
}

test("a new listener finds every article by topic from the home page, and a topic's feed opens as a page with subscribe buttons", async () => {
  const base = platform.base;
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${base}/`);
  await checkEverywhere(page, "/");
  await page.getByRole("link", { name: "Science", exact: true }).click();
  await page.getByRole("heading", { name: "Science", level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/topics/science");
  await checkEverywhere(page, "/topics/science");
  // Every science article is listed (none is narrated here, and none needs to be).
  const listed = await page.locator("#newest ~ ol.articles a").allTextContents();
  assert.deepEqual([...listed].sort(), science.map((a) => a.title).sort());
  const feedUrl = `${base}/v1/podcasts/service-science.xml`;
  assert.equal(await page.locator("#feed-url").inputValue(), feedUrl);
  assert.deepEqual(await appLinks(page), expectedApps(feedUrl));

  // The feed's address in a browser: a page drawn on the server (workers/feeds/feed-page.ts) with the same buttons.
  await page.goto(feedUrl);
  await page.getByRole("heading", { name: "Science", level: 1 }).waitFor();
  assert.equal(await page.locator("#feed-url").inputValue(), feedUrl);
  assert.deepEqual(await appLinks(page), expectedApps(feedUrl));
  // No XSLT, so no banner of Chromium's saying that XSLT is going away (docs/feeds.md "Feeds in a browser").
  assert.equal(await page.locator("xslt-warning-banner").count(), 0);
  await checkEverywhere(page, "service-science.xml in a browser");
  // A podcast app still gets the RSS.
  const app = await fetch(feedUrl, { headers: { Accept: "application/rss+xml, */*" } });
  assert.equal(app.headers.get("content-type"), "application/rss+xml; charset=utf-8");
  assert.match(await app.text(), /^<\?xml version="1\.0" encoding="utf-8"\?>\n<rss /);
});

test("the sign-in page wears the site header, and axe-core finds nothing on it at either width", async () => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${platform.base}/sign-in?next=/listen`);
  await page.getByRole("banner").getByRole("link", { name: "Narration" }).waitFor();
  await page.getByRole("main").getByRole("heading", { name: "Sign in" }).waitFor();
  await checkEverywhere(page, "/sign-in");
});

/** Opens the night block of the flo page (a block folds unless it is the one playing now). */
async function openNight(page) {
  const night = page.locator("details.flo-block", { has: page.locator("#block-night") });
  if (!(await night.evaluate((d) => d.open))) await night.locator("summary").click();
}

/** The slugs of the night block's list, in the order shown. */
function nightOrder(page) {
  return page.locator('ol.flo[data-block="night"] > li').evaluateAll((items) => items.map((li) => li.dataset.slug));
}

test("a listener subscribes, signs in by mail, sets verticals, copies the feed, reorders the flo and leaves", async () => {
  const base = platform.base;
  const email = "listener-pages@example.test";
  assert.ok(science.length >= 3);
  const context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();

  // Subscribe.
  await page.goto(`${base}/listen`);
  await checkEverywhere(page, "/listen (signed out)");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("checkbox", { name: "Science" }).check();
  await page.getByRole("button", { name: "Subscribe" }).click();
  await page.getByText("We mailed a sign-in link").waitFor();
  await checkEverywhere(page, "/listen/subscribe");

  // Sign in through the mailed link.
  const mail = await mailTo(base, email);
  const link = /http:\/\/127\.0\.0\.1:\d+\/sign-in\/confirm\?\S+/.exec(mail.text)[0];
  await page.goto(link);
  await checkEverywhere(page, "/sign-in/confirm");
  await page.getByRole("button", { name: "Continue signing in" }).click();
  await page.getByRole("heading", { name: "Your private feed" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/listen");
  await checkEverywhere(page, "/listen");

  // Verticals and the pin.
  await page.getByRole("checkbox", { name: "Technology" }).check();
  await page.getByRole("radio", { name: "Science" }).check();
  await page.getByRole("button", { name: "Save verticals" }).click();
  await page.getByText("Your verticals are saved.").waitFor();
  await page.reload();
  assert.ok(await page.getByRole("checkbox", { name: "Technology" }).isChecked());
  assert.ok(await page.getByRole("checkbox", { name: "Science" }).isChecked());
  assert.ok(await page.getByRole("radio", { name: "Science" }).isChecked());

  // The private feed: the copy button (the script's) puts the URL on the clipboard.
  const feedUrl = await page.locator("#feed-url").inputValue();
  assert.match(feedUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1\/podcasts\/u\/[\w-]+\.xml$/);
  await page.getByRole("button", { name: "Copy" }).click();
  await page.getByText("Feed URL copied.").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), feedUrl);
  assert.equal((await fetch(feedUrl)).status, 200);
  assert.deepEqual(await appLinks(page), expectedApps(feedUrl));

  // The private feed's address in a browser (what the QR code opens): a page with the same buttons and a warning.
  const feedPage = await context.newPage();
  await feedPage.goto(feedUrl);
  await feedPage.getByText("This is a private feed").waitFor();
  assert.deepEqual(await appLinks(feedPage), expectedApps(feedUrl));
  assert.equal(await feedPage.locator("xslt-warning-banner").count(), 0);
  await checkEverywhere(feedPage, "the private feed in a browser");
  await feedPage.close();

  // The queue, with render states.
  await page.getByRole("link", { name: "Queue" }).click();
  await page.getByRole("heading", { name: "Your queue" }).waitFor();
  assert.ok((await page.locator("main li").count()) >= science.length);
  await checkEverywhere(page, "/listen/queue");

  // The flo: drag the night block's last article to the top; the order survives a reload.
  await page.getByRole("link", { name: "Flo" }).click();
  await page.getByRole("heading", { name: "Your flo" }).waitFor();
  await checkEverywhere(page, "/listen/flo");
  // Only the blocks with a topic this listener follows (Science, Technology): the midday block has neither.
  assert.equal(await page.locator("#block-midday").count(), 0);
  await openNight(page);
  const before = await nightOrder(page);
  assert.ok(before.length >= 3, `night block shows ${before.length} articles`);
  const items = page.locator('ol.flo[data-block="night"] > li');
  await items.last().dragTo(items.first(), { targetPosition: { x: 10, y: 3 } });
  await page.getByText("Order saved.").waitFor();
  const moved = [before.at(-1), ...before.slice(0, -1)];
  assert.deepEqual(await nightOrder(page), moved);
  await page.reload();
  assert.deepEqual(await nightOrder(page), moved);
  // The keyboard way: the move buttons, also saved.
  await openNight(page);
  await items
    .first()
    .getByRole("button", { name: / down$/ })
    .focus();
  await page.keyboard.press("Enter");
  await page.getByText("Order saved.").waitFor();
  const swapped = [moved[1], moved[0], ...moved.slice(2)];
  await page.reload();
  assert.deepEqual(await nightOrder(page), swapped);

  // Delete, after the confirmation step.
  await page.getByRole("link", { name: "Account" }).click();
  // The private feed as a QR code, drawn in the page.
  await page.getByRole("img", { name: /Point your phone's camera at this code/ }).waitFor();
  await checkEverywhere(page, "/listen/account");
  await page.getByRole("link", { name: "Delete my account…" }).click();
  await page.getByRole("heading", { name: "Delete your account?" }).waitFor();
  await checkEverywhere(page, "/listen/delete");
  await page.getByRole("button", { name: "Yes, delete my account" }).click();
  await page.getByText("Your account is deleted.").waitFor();
  assert.equal((await fetch(feedUrl)).status, 404);
  await page.goto(`${base}/listen/flo`);
  assert.equal(new URL(page.url()).pathname, "/sign-in");
  await checkEverywhere(page, "/sign-in");
});

test("the listener pages refuse to render inside another site's frame", async () => {
  const site = await startFramingSite();
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${site.origin}/?src=${encodeURIComponent(`${platform.base}/listen`)}`);
    const frame = await (await page.waitForSelector("iframe")).contentFrame();
    await frame.waitForLoadState();
    // Chromium blocks the framed page (CSP frame-ancestors 'none'): the frame holds no subscribe form.
    assert.equal(await frame.locator("input[type=email]").count(), 0);
    await page.goto(`${platform.base}/listen`);
    assert.equal(await page.locator("input[type=email]").count(), 1);
  } finally {
    site.server.close();
  }
});
