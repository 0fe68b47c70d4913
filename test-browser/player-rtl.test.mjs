// The player in a right-to-left script (issue 42 item 5): an Arabic article, narrated by the offline
// engine's Arabic voice (its data put in the platform's R2 as npm start does), opened in Debian's
// Chromium. The page reads right to left (lang=ar, dir=rtl), the player speaks Arabic
// (workers/web/player-words.ts), the word lit is the word being spoken, the highlight moves leftwards
// along a line as the words are spoken, the arrow that points the way the text reads (left) goes to the
// next word, and the article page and the embed have no axe finding at 390 and 1280 px. With
// SCREENSHOTS=<folder> it leaves the four screenshots there to look at. Runs against the platform under
// wrangler dev on its own port (PORT moves it, default 8813).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { coversWithin, litNow, until } from "./support/highlight.mjs";
import { checkEverywhere } from "./support/axe.mjs";
import { publishNarrated, startPlatform } from "./support/platform.mjs";
import { launchBrowser } from "../scripts/browser.mjs";

const PORT = Number(process.env.PORT ?? 8813);
const STATE = ".wrangler/browser-test-player-rtl-state";

// Written for the project: how a harbour's tide table is made.
const ARTICLE = {
  slug: "tide-tables-ar",
  title: "جداول المد والجزر",
  publisher: "Harbour Weekly",
  vertical: "science",
  language: "ar",
  summary: "كيف يحسب جدول المد والجزر.",
  body_text: [
    "يطبع كل ميناء جدولا للمد والجزر، ويثق به البحارة لأن القمر والشمس يسيران بانتظام كبير.",
    "يبنى الجدول من موجات لطيفة كثيرة، لكل منها دورتها الخاصة، تضاف بعضها إلى بعض.",
    "وبعد سنة من القياسات الدقيقة في ميناء واحد، يصبح التنبؤ بالماء لعقد كامل مسألة حساب بسيطة.",
  ].join("\n\n"),
};

let platform;
let browser;

before(async () => {
  platform = await startPlatform(PORT, STATE, {}, { languages: true });
  [browser] = await Promise.all([launchBrowser(), publishNarrated(platform.base, ARTICLE, 180_000)]);
});

after(async () => {
  await browser?.close();
  platform?.child.kill();
});

/** Every timed word of the page, in speaking order, with its timing and where it is drawn. */
const timedWords = (page) =>
  page.locator("[data-s]").evaluateAll((ws) =>
    ws.map((w) => {
      const r = w.getBoundingClientRect();
      return { start: Number(w.dataset.s), text: w.textContent, left: r.left, top: r.top };
    }),
  );

test("the page reads right to left, in Arabic, and its words are drawn right to left", async () => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  for (const path of [`/articles/${ARTICLE.slug}`, `/embed/article/${ARTICLE.slug}`]) {
    await page.goto(`${platform.base}${path}`);
    await page.locator(".controls:not([hidden])").waitFor();
    assert.deepEqual(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), ["ar", "rtl"], path);
    // The player's words are Arabic (the table's), and the play button is found by its Arabic name.
    assert.equal(await page.getByRole("button", { name: "تشغيل" }).count(), 1, path);
    assert.equal(await page.getByLabel("السرعة").count(), 1, path);
    const words = await timedWords(page);
    const spoken = [ARTICLE.title, ...ARTICLE.body_text.split("\n\n")].join(" ").split(/\s+/);
    assert.deepEqual(
      words.map((w) => w.text),
      spoken,
      path,
    );
    // Within a line, each next word is drawn to the left of the one before.
    const sameLine = words.slice(1).filter((w, i) => Math.abs(w.top - words[i].top) < 2 && words[i].text && w.start > words[i].start);
    assert.ok(sameLine.length > 5, `${path}: words sharing a line`);
    for (let i = 1; i < words.length; i++) {
      if (Math.abs(words[i].top - words[i - 1].top) < 2)
        assert.ok(words[i].left < words[i - 1].left, `${path}: "${words[i].text}" is left of "${words[i - 1].text}"`);
    }
  }
  await page.close();
});

test("the word lit is the word being spoken, and the highlight moves leftwards along a line", async () => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${platform.base}/articles/${ARTICLE.slug}`);
  await page.locator(".controls:not([hidden])").waitFor();
  const words = await timedWords(page);
  assert.ok(
    words.every((w, i) => i === 0 || w.start >= words[i - 1].start),
    "ascending word timings",
  );
  const duration = words.at(-1).start;
  await page.getByRole("button", { name: "تشغيل" }).click();
  const seen = [];
  for (const point of [0.25, 0.5, 0.75].map((f) => f * duration)) {
    await until(page, (n) => document.querySelector("audio").currentTime >= n, point, `playback reaches ${point.toFixed(1)} s`);
    const { t, lit } = await litNow(page);
    assert.equal(lit.length, 1, `one word lit at ${t}: ${lit}`);
    const [i] = lit;
    assert.ok(coversWithin(words, i, t, 0.15), `at ${t.toFixed(3)} s "${words[i].text}" (${words[i].start}) is lit`);
    seen.push(i);
    // The highlight is drawn on the lit word itself.
    const box = await page.locator(".w.current").boundingBox();
    assert.ok(Math.abs(box.x - words[i].left) < 2, `the highlight is on "${words[i].text}"`);
  }
  assert.ok(seen[0] < seen[1] && seen[1] < seen[2], `the lit word moves on: ${seen}`);
  // Two lit words a moment apart on one line: the later one is to the left.
  await page.evaluate(() => document.querySelector("audio").pause());
  const line = words.findIndex((w, i) => i > 0 && Math.abs(w.top - words[i - 1].top) < 2 && w.start - words[i - 1].start > 0.2);
  const leftOf = [];
  for (const k of [line - 1, line]) {
    await page.evaluate((s) => (document.querySelector("audio").currentTime = s + 0.05), words[k].start);
    await until(page, (s) => document.querySelector(".w.current")?.dataset.s === s, words[k].start.toFixed(3), `"${words[k].text}" lit after a seek`);
    leftOf.push((await page.locator(".w.current").boundingBox()).x);
  }
  assert.ok(leftOf[1] < leftOf[0], `the highlight moved left: ${leftOf}`);
  await page.close();
});

test("the arrow pointing the way the text reads (left) goes to the next word", async () => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${platform.base}/articles/${ARTICLE.slug}`);
  await page.locator(".controls:not([hidden])").waitFor();
  const paragraph = page.locator('[data-index="1"]');
  const own = await paragraph.locator("[data-s]").allTextContents();
  await paragraph.focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press("ArrowLeft");
  assert.equal(await page.evaluate(() => document.activeElement.textContent), own[2]);
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.textContent), own[1]);
  await page.close();
});

test("the article page and the embed have no axe finding at 390 and 1280 px", async () => {
  const page = await (await browser.newContext()).newPage();
  for (const [name, path] of [
    ["article", `/articles/${ARTICLE.slug}`],
    ["embed", `/embed/article/${ARTICLE.slug}`],
  ]) {
    await page.goto(`${platform.base}${path}`);
    await page.locator(".controls:not([hidden])").waitFor();
    // A word lit, as a listener sees it.
    await page.evaluate(() => document.querySelector("audio").play());
    await page.waitForFunction(() => document.querySelector(".w.current"), null, { timeout: 30_000 });
    await page.evaluate(() => document.querySelector("audio").pause());
    await checkEverywhere(page, path);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/player-ar-${name}-${width}.png`, fullPage: name === "article" });
    }
  }
  await page.close();
});
