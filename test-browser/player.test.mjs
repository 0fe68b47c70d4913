// The embeddable player in a real browser (issue 15): Debian's Chromium, driven by playwright-core,
// plays a narrated article inside a frame of another site; the highlight follows the recorded
// paragraph starts and, word by word, the words' own timings (issue 32 item 3); a click on a
// paragraph or a word seeks there, the arrow keys move word by word, a reader who asks for less
// motion gets no smooth scrolling, and the speed control sets playbackRate. An axe-core check runs
// on the player, the article page and the home page. Runs against the platform
// under wrangler dev: `npm run test:browser` (PORT moves it, default 8802).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { coversWithin, litNow, until } from "./support/highlight.mjs";
import { expectAccessible } from "./support/axe.mjs";
import { publishNarrated, startFramingSite, startPlatform } from "./support/platform.mjs";
import { launchBrowser } from "../scripts/browser.mjs";

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

before(async () => {
  platform = await startPlatform(PORT, STATE);
  [browser, site] = await Promise.all([launchBrowser(), startFramingSite(), publishNarrated(platform.base, ARTICLE)]);
});

after(async () => {
  await browser?.close();
  site?.server.close();
  platform?.child.kill();
});

/** The player in a frame of the publisher's page, and its <audio>. */
async function framedPlayer(contextOptions = {}) {
  const page = await (await browser.newContext(contextOptions)).newPage();
  const embed = `${platform.base}/embed/article/${ARTICLE.slug}`;
  await page.goto(`${site.origin}/?src=${encodeURIComponent(embed)}`);
  const frame = await (await page.waitForSelector("iframe")).contentFrame();
  await frame.waitForSelector(".controls:not([hidden])");
  return { page, frame, audio: frame.locator("audio") };
}

const currentTime = (audio) => audio.evaluate((a) => a.currentTime);
const starts = (frame) => frame.locator("[data-start]").evaluateAll((ps) => ps.map((p) => Number(p.dataset.start)));
const highlighted = (frame) => frame.locator("[data-start].current").evaluateAll((ps) => ps.map((p) => Number(p.dataset.index)));
/** Every timed word of the page, in order, with its timing (seconds) as the render measured it. */
const timedWords = (frame) =>
  frame.locator("[data-s]").evaluateAll((ws) => ws.map((w) => ({ start: Number(w.dataset.s), end: Number(w.dataset.e), text: w.textContent })));
/** The word being spoken at `t` by the timings: the last to have started (a word stays lit through the pause after it). */
const spokenAt = (words, t) => words.findLastIndex((w) => w.start <= t);

test("the player plays inside another site's frame, and the highlight follows the paragraphs", async () => {
  const { page, frame, audio } = await framedPlayer();
  const paragraphStarts = await starts(frame);
  // The title and the four paragraphs, each with the start the render recorded.
  assert.equal(paragraphStarts.length, 5);
  assert.ok(
    paragraphStarts.every((s, i) => i === 0 || s > paragraphStarts[i - 1]),
    `ascending starts: ${paragraphStarts}`,
  );

  await frame.getByRole("button", { name: "Play" }).click();
  await until(frame, () => document.querySelector("audio").currentTime > 0.5, undefined, "currentTime passes 0.5 s");
  const t1 = await currentTime(audio);
  await until(frame, (t) => document.querySelector("audio").currentTime > t + 0.5, t1, "currentTime advances");
  assert.equal(await frame.getByRole("button", { name: "Pause" }).count(), 1);

  // Past the first paragraph's start, the first paragraph (index 1) is the one highlighted.
  await until(frame, (s) => document.querySelector("audio").currentTime > s + 0.3, paragraphStarts[1], "playback reaches the first paragraph");
  assert.deepEqual(await highlighted(frame), [1]);

  // Duration and remaining time from the audio itself; lock-screen metadata from the article.
  const duration = await audio.evaluate((a) => a.duration);
  const clock = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
  assert.equal(await frame.locator('[data-el="duration"]').textContent(), clock(duration));
  assert.match(await frame.locator('[data-el="remaining"]').textContent(), /^-\d+:\d\d$/);
  const metadata = await frame.evaluate(() => ({ title: navigator.mediaSession.metadata?.title, artist: navigator.mediaSession.metadata?.artist }));
  assert.deepEqual(metadata, { title: ARTICLE.title, artist: ARTICLE.publisher });
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

  // From the keyboard: Enter on a focused paragraph plays from there; Enter on "Back 15 seconds" skips.
  await frame.locator('[data-index="2"]').focus();
  await page.keyboard.press("Enter");
  await until(frame, (s) => Math.abs(document.querySelector("audio").currentTime - s) < 1, paragraphStarts[2], "Enter on paragraph 2 seeks there");
  assert.deepEqual(await highlighted(frame), [2]);
  const before = await currentTime(audio);
  await frame.getByRole("button", { name: "Back 15 seconds" }).focus();
  await page.keyboard.press("Enter");
  await until(frame, (t) => document.querySelector("audio").currentTime < Math.max(1, t - 10), before, "skip back 15 s");
  await page.close();
});

test("the word being spoken is lit: at three points of the article, the lit word is the one whose timing covers the time, within 150 ms", async () => {
  const { page, frame } = await framedPlayer();
  const words = await timedWords(frame);
  // Every word of the title and the four paragraphs is timed, in speaking order.
  const text = [ARTICLE.title, ...ARTICLE.body_text.split("\n\n")].join(" ").split(/\s+/);
  assert.deepEqual(
    words.map((w) => w.text),
    text,
  );
  assert.ok(
    words.every((w, i) => w.end >= w.start && (i === 0 || w.start >= words[i - 1].start)),
    "ascending word timings",
  );

  await frame.getByRole("button", { name: "Play" }).click();
  for (const point of [2, 6, 11]) {
    await until(frame, (n) => document.querySelector("audio").currentTime >= n, point, `playback reaches ${point} s`);
    const { t, lit } = await litNow(frame);
    assert.equal(lit.length, 1, `one word lit at ${t}: ${lit}`);
    const [i] = lit;
    const expected = spokenAt(words, t);
    assert.ok(
      coversWithin(words, i, t, 0.15),
      `at ${t.toFixed(3)} s "${words[i].text}" (${words[i].start}-${words[i].end}) is lit; the timings say "${words[expected].text}" (${words[expected].start})`,
    );
    // The lit word is in the lit paragraph.
    assert.equal(await frame.evaluate(() => document.querySelector(".w.current").closest("[data-start]").classList.contains("current")), true);
  }
  await page.close();
});

test("a click on a word plays from that word; from the keyboard, the arrow keys move word by word and Enter plays from the focused word", async () => {
  const { page, frame, audio } = await framedPlayer();
  const words = await timedWords(frame);
  const paragraphStarts = await starts(frame);
  // Word indices of each paragraph: the title's words are paragraph 0's.
  const wordsOf = (p) =>
    [...words.keys()].filter(
      (i) => words[i].start >= paragraphStarts[p] - 0.05 && (p + 1 >= paragraphStarts.length || words[i].start < paragraphStarts[p + 1] - 0.05),
    );
  const inParagraph3 = frame.locator('[data-index="3"] [data-s]');
  const target = wordsOf(3)[6];
  await inParagraph3.nth(6).click();
  await until(frame, () => !document.querySelector("audio").paused, undefined, "playback starts");
  const { t, lit } = await litNow(frame);
  assert.ok(Math.abs(t - words[target].start) < 0.5, `after the click, currentTime ${t} is at "${words[target].text}" (${words[target].start})`);
  assert.ok(coversWithin(words, lit[0], t, 0.15) && Math.abs(lit[0] - target) <= 1, `"${words[lit[0]].text}" is lit after a click on "${words[target].text}"`);
  await audio.evaluate((a) => a.pause());

  // Tab to paragraph 2, three steps right, Enter: playback from its third word. Escape returns to the paragraph.
  await frame.locator('[data-index="2"]').focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press("ArrowRight");
  const focused = await frame.evaluate(() => ({ text: document.activeElement.textContent, s: Number(document.activeElement.dataset.s) }));
  const second = wordsOf(2)[2];
  assert.deepEqual(focused, { text: words[second].text, s: words[second].start });
  await page.keyboard.press("Enter");
  await until(
    frame,
    (s) => !document.querySelector("audio").paused && Math.abs(document.querySelector("audio").currentTime - s) < 0.5,
    focused.s,
    "Enter on a word plays from it",
  );
  await page.keyboard.press("Escape");
  assert.equal(await frame.evaluate(() => document.activeElement.dataset.index), "2");
  await page.close();
});

test("a reader who asks for less motion gets no smooth scrolling and no fades", async () => {
  for (const reducedMotion of ["reduce", "no-preference"]) {
    const { page, frame } = await framedPlayer({ reducedMotion });
    // Record how the player scrolls the transcript box (it scrolls as playback moves through the text).
    await frame.evaluate(() => {
      window.scrollBehaviors = [];
      const scrollTo = Element.prototype.scrollTo;
      Element.prototype.scrollTo = function (options) {
        window.scrollBehaviors.push(options?.behavior ?? "auto");
        return scrollTo.call(this, options);
      };
    });
    const paragraphStarts = await starts(frame);
    await frame.locator('[data-index="1"]').click();
    await until(frame, (s) => document.querySelector("audio").currentTime > s + 0.3, paragraphStarts[2], "playback reaches paragraph 2");
    const behaviors = await frame.evaluate(() => window.scrollBehaviors);
    const transition = await frame.evaluate(() => getComputedStyle(document.querySelector(".w")).transitionDuration);
    assert.ok(behaviors.length > 0, `${reducedMotion}: the transcript scrolled`);
    if (reducedMotion === "reduce") {
      assert.deepEqual([...new Set(behaviors)], ["auto"]);
      assert.equal(transition, "0s");
    } else {
      assert.ok(behaviors.includes("smooth"));
      assert.notEqual(transition, "0s");
    }
    await page.close();
  }
});

test("the player and the article page say the voice is an AI voice, and name it", async () => {
  const page = await (await browser.newContext()).newPage();
  for (const path of [`/embed/article/${ARTICLE.slug}`, `/articles/${ARTICLE.slug}`]) {
    await page.goto(`${platform.base}${path}`);
    assert.match(await page.locator(".narrator").textContent(), /^Read by an AI voice: \S+ \(.+\)$/);
  }
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
  // The built script is served by wrangler's assets under its content hash, cached immutable.
  const script = await page.locator('script[type="module"]').getAttribute("src");
  const asset = await fetch(`${platform.base}${script}`);
  assert.equal(asset.status, 200);
  assert.equal(asset.headers.get("cache-control"), "public, max-age=31536000, immutable");
  // The embed at 320 px wide: nothing scrolls sideways.
  await page.setViewportSize({ width: 320, height: 480 });
  await page.goto(`${platform.base}/embed/article/${ARTICLE.slug}`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 320);
  await page.close();
});

// Last in this file: it spends the address's API read budget for the rest of the minute.
test("once the API's read budget is spent, the article page and the framed player still open, and the home search says it is limited (issue 33 item 1)", async () => {
  let refused = 0;
  for (let i = 0; i < 70; i++) if ((await fetch(`${platform.base}/v1/articles/${ARTICLE.slug}`)).status === 429) refused++;
  assert.ok(refused > 0, "the API's read budget is spent");
  const { page, frame } = await framedPlayer();
  assert.equal(await frame.locator("h1").textContent(), ARTICLE.title);
  assert.equal((await page.goto(`${platform.base}/articles/${ARTICLE.slug}`)).status(), 200);
  await page.goto(`${platform.base}/`);
  await page.getByLabel("Search the archive").pressSequentially("harmonic", { delay: 30 });
  const status = page.locator("[data-search-status]");
  await page.waitForFunction(() => /Too many searches/.test(document.querySelector("[data-search-status]")?.textContent ?? ""), null, { timeout: 10_000 });
  assert.match(await status.textContent(), /^Too many searches from your address just now: try again in \d+ seconds?\.$/);
  assert.ok(await status.isVisible(), "the refusal is shown, not only announced");
  assert.equal(await page.locator("[data-search-results] li").count(), 0);
  await page.close();
});
