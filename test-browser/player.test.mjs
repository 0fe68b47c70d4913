// The embeddable player in a real browser (issue 15): Debian's Chromium, driven by playwright-core,
// plays a narrated article inside a frame of another site; the highlight follows the recorded
// paragraph starts, a click on a paragraph seeks there and the speed control sets playbackRate. An
// axe-core check runs on the player, the article page and the home page. Runs against the platform
// under wrangler dev: `npm run test:browser` (PORT moves it, default 8802).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { expectAccessible } from "./support/axe.mjs";
import { launchBrowser, publishNarrated, startFramingSite, startPlatform } from "./support/platform.mjs";

const PORT = Number(process.env.PORT ?? 8802);
const STATE = ".wrangler/browser-test-player-state";

const ARTICLE = {
  slug: "tide-tables-explained",
  title: "Tide Tables, Explained",
  publisher: "Harbour Weekly",
  vertical: "science",
  summary: "How a tide table is computed, and why it is right.",
  body_text: [
    "Every harbour prints a tide table, and sailors trust it because the moon and the sun keep very regular hours.",
    "The table is built from harmonic constituents: dozens of gentle waves, each with its own period, added together.",
    "A year of careful measurements at one harbour fixes the height and the timing of every one of those waves.",
    "After that, predicting the water a decade ahead is arithmetic, which is why the printed tables are rarely wrong.",
  ].join("\n\n"),
};

let platform;
let browser;
let site;
let record;

before(async () => {
  platform = await startPlatform(PORT, STATE);
  [browser, site, record] = await Promise.all([launchBrowser(), startFramingSite(), publishNarrated(platform.base, ARTICLE)]);
});

after(async () => {
  await browser?.close();
  site?.server.close();
  platform?.child.kill();
});

/** The player in a frame of the publisher's page, and its <audio>. */
async function framedPlayer() {
  const page = await (await browser.newContext()).newPage();
  const embed = `${platform.base}/embed/article/${ARTICLE.slug}`;
  await page.goto(`${site.origin}/?src=${encodeURIComponent(embed)}`);
  const frame = await (await page.waitForSelector("iframe")).contentFrame();
  await frame.waitForSelector(".controls:not([hidden])");
  return { page, frame, audio: frame.locator("audio") };
}

const currentTime = (audio) => audio.evaluate((a) => a.currentTime);
const starts = (frame) => frame.locator("[data-start]").evaluateAll((ps) => ps.map((p) => Number(p.dataset.start)));
const highlighted = (frame) => frame.locator("[data-start].current").evaluateAll((ps) => ps.map((p) => Number(p.dataset.index)));

/** Waits until `predicate` (run in the frame) holds, or fails naming `what`. */
async function until(frame, predicate, arg, what) {
  try {
    await frame.waitForFunction(predicate, arg, { timeout: 20_000, polling: 100 });
  } catch {
    assert.fail(`timed out waiting until ${what}`);
  }
}

test("the player plays inside another site's frame, and the highlight follows the paragraphs", async () => {
  const { page, frame, audio } = await framedPlayer();
  const paragraphStarts = await starts(frame);
  // The title and the four paragraphs, each with the start the render recorded.
  assert.equal(paragraphStarts.length, 5);
  assert.ok(paragraphStarts.every((s, i) => i === 0 || s > paragraphStarts[i - 1]), `ascending starts: ${paragraphStarts}`);

  await frame.getByRole("button", { name: "Play" }).click();
  await until(frame, () => document.querySelector("audio").currentTime > 0.5, undefined, "currentTime passes 0.5 s");
  const t1 = await currentTime(audio);
  await until(frame, (t) => document.querySelector("audio").currentTime > t + 0.5, t1, "currentTime advances");
  assert.equal(await frame.getByRole("button", { name: "Pause" }).count(), 1);

  // Past the first paragraph's start, the first paragraph (index 1) is the one highlighted.
  await until(frame, (s) => document.querySelector("audio").currentTime > s + 0.3, paragraphStarts[1], "playback reaches the first paragraph");
  assert.deepEqual(await highlighted(frame), [1]);
  await page.close();
});

test("a click on a paragraph seeks there; the speed control sets playbackRate", async () => {
  const { page, frame, audio } = await framedPlayer();
  const paragraphStarts = await starts(frame);
  await frame.locator('[data-index="3"]').click();
  await until(frame, () => !document.querySelector("audio").paused, undefined, "playback starts");
  const t = await currentTime(audio);
  assert.ok(t >= paragraphStarts[3] - 0.05 && t < paragraphStarts[3] + 2, `after the click, currentTime ${t} is at paragraph 3 (${paragraphStarts[3]})`);
  assert.deepEqual(await highlighted(frame), [3]);

  await frame.getByLabel("Speed").selectOption("1.5");
  assert.equal(await audio.evaluate((a) => a.playbackRate), 1.5);
  await frame.getByLabel("Speed").selectOption("0.75");
  assert.equal(await audio.evaluate((a) => a.playbackRate), 0.75);

  // Skip back from the keyboard: Tab to the button, Enter.
  await frame.getByRole("button", { name: "Back 15 seconds" }).focus();
  await page.keyboard.press("Enter");
  await until(frame, () => document.querySelector("audio").currentTime < 3, undefined, "skip back 15 s");
  await page.close();
});

test("the home page searches as you type and links each result to its article page", async () => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${platform.base}/`);
  await page.getByLabel("Search the archive").pressSequentially("harmonic", { delay: 30 });
  const result = page.locator("[data-search-results] a", { hasText: ARTICLE.title });
  await result.waitFor({ timeout: 10_000 });
  await result.click();
  await page.waitForURL(`${platform.base}/articles/${ARTICLE.slug}`);
  assert.equal(await page.locator("h1").textContent(), ARTICLE.title);
  await page.close();
});

test("axe-core finds no serious or critical violation on the player, the article page and the home page", async () => {
  const page = await (await browser.newContext()).newPage();
  for (const path of [`/embed/article/${ARTICLE.slug}`, `/articles/${ARTICLE.slug}`, "/"]) {
    await page.goto(`${platform.base}${path}`);
    await page.waitForLoadState("load");
    await expectAccessible(page, path);
  }
  // The embed at 320 px wide: nothing scrolls sideways.
  await page.setViewportSize({ width: 320, height: 480 });
  await page.goto(`${platform.base}/embed/article/${ARTICLE.slug}`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 320);
  await page.close();
});
