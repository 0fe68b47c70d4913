// The publishers' studio in a real browser (issue 43 items 1-4, docs/publishers.md): Debian's Chromium,
// driven by playwright-core. An editor signs in with the mailed link from the local outbox, turns
// review on; a signed publish arrives and waits (its feed has no item, the listener's audio request
// gets no audio); the editor plays it with the words highlighted, adds a lexicon entry, hears the
// preview, re-renders and releases, and the feed then has it. A viewer cannot release; a sign-in link
// is single use and works only in the browser that asked for it. Then (items 5-6) the editor sees the
// listening numbers after a few plays and downloads them as CSV, adds a webhook endpoint (a receiver on
// loopback here checks each delivery's Standard Webhooks signature) and sees the delivery in the log; a
// viewer cannot add one. axe-core checks every studio page at 390 and 1280 px; the numbers' and the
// webhooks' pages are also saved as screenshots/studio-*.png. Runs against the platform under wrangler
// dev: `npm run test:browser` (PORT moves it, default 8804).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { readVars } from "../scripts/local.mjs";
import { signature } from "../scripts/seed.mjs";
import { launchBrowser } from "../scripts/browser.mjs";
import { checkEverywhere } from "./support/axe.mjs";
import { json, mailTo } from "./support/outbox.mjs";
import { startPlatform } from "./support/platform.mjs";

const PORT = Number(process.env.PORT ?? 8804);
const STATE = ".wrangler/browser-test-studio-state";
const PUBLISHER = "Harbour Weekly";
const P = encodeURIComponent(PUBLISHER);

const ARTICLE = {
  slug: "nguyen-on-tides",
  title: "Nguyen on Tides",
  publisher: PUBLISHER,
  vertical: "science",
  summary: "A harbour master explains the tide table.",
  body_text: [
    "Harbour master Nguyen prints a tide table every winter, and sailors trust it.",
    "The table is built from dozens of gentle waves, each with its own period, added together.",
  ].join("\n\n"),
};

let platform;
let browser;

before(async () => {
  platform = await startPlatform(PORT, STATE);
  browser = await launchBrowser();
  const { ADMIN_TOKEN } = readVars();
  for (const [email, role] of [
    ["editor@example.com", "editor"],
    ["viewer@example.com", "viewer"],
  ]) {
    await json(
      await fetch(`${platform.base}/v1/admin/publishers/${P}/members`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-email-token": ADMIN_TOKEN },
        body: JSON.stringify({ email, role }),
      }),
    );
  }
});

after(async () => {
  await browser?.close();
  platform?.child.kill();
});

/** Asks for a sign-in link for `email` in `page`'s browser; the mailed link. */
async function askForLink(page, email) {
  const before = new Set((await json(await fetch(`${platform.base}/v1/dev/outbox?limit=50`))).messages.map((m) => m.id));
  await page.goto(`${platform.base}/studio/sign-in`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Mail me a sign-in link" }).click();
  await page.getByRole("heading", { name: "Check your mail" }).waitFor();
  for (let i = 0; i < 50; i++) {
    const mail = await mailTo(platform.base, email);
    if (!before.has(mail.id)) return new URL(/https?:\/\/\S+\/studio\/sign-in\/confirm\?\S+/.exec(mail.text)[0]);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no new mail to ${email}`);
}

/** A page signed in to the studio as `email`, on /studio. */
async function signedIn(email) {
  const page = await (await browser.newContext()).newPage();
  const link = await askForLink(page, email);
  await page.goto(link.href);
  await page.getByRole("button", { name: "Continue signing in" }).click();
  await page.getByRole("heading", { name: "Your publishers" }).waitFor();
  return page;
}

/** Reloads the narrations list until the article shows `state`. */
async function waitForState(page, state, timeoutMs = 120_000) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; ) {
    await page.goto(`${platform.base}/studio/${P}/articles/${ARTICLE.slug}`);
    const newest = await page
      .locator("#history ~ ol li")
      .first()
      .textContent()
      .catch(() => "");
    if (newest?.includes(state)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${ARTICLE.slug} never reached ${state}`);
}

async function publishSigned(article) {
  const body = JSON.stringify(article);
  const res = await fetch(`${platform.base}/v1/webhook/publish`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-legacy-signature": signature(readVars().PUBLISH_WEBHOOK_SECRET, body) },
    body,
  });
  assert.ok(res.ok, `publish answered ${res.status}`);
}

test("a sign-in link works once, and only in the browser that asked for it", async () => {
  const asking = await (await browser.newContext()).newPage();
  const link = await askForLink(asking, "editor@example.com");
  await checkEverywhere(asking, "/studio/sign-in (check your mail)");
  const other = await (await browser.newContext()).newPage();
  const refused = await other.goto(link.href);
  assert.equal(refused.status(), 403);
  await other.getByRole("heading", { name: "Open the link where you asked for it" }).waitFor();
  await asking.goto(link.href);
  await checkEverywhere(asking, "/studio/sign-in/confirm");
  await asking.getByRole("button", { name: "Continue signing in" }).click();
  await asking.getByRole("heading", { name: "Your publishers" }).waitFor();
  const again = await asking.goto(link.href);
  assert.equal(again.status(), 200);
  await asking.getByRole("button", { name: "Continue signing in" }).click();
  await asking.getByText("This link was already used or has expired").waitFor();
});

test("an editor reviews a narration before release: it waits out of the feed, is heard, tuned by ear, re-rendered and released", async () => {
  const base = platform.base;
  const page = await signedIn("editor@example.com");
  await checkEverywhere(page, "/studio");
  await page.getByRole("link", { name: PUBLISHER }).click();
  await page.getByRole("heading", { name: "Narrations" }).waitFor();
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Review narrations before release").check();
  // The form posts and comes back to the page: check the page that came back, not the one leaving.
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Save" }).click()]);
  await checkEverywhere(page, "/studio/{publisher}/settings");
  assert.equal(await page.getByLabel("Review narrations before release").isChecked(), true);

  await publishSigned(ARTICLE);
  await waitForState(page, "awaiting review");
  // Waiting: no feed item, and a listener's request for the audio gets none.
  assert.doesNotMatch(await (await fetch(`${base}/v1/podcasts/service.xml`)).text(), new RegExp(ARTICLE.slug));
  const state = await json(await fetch(`${base}/v1/articles/${ARTICLE.slug}/audio`));
  assert.equal(state.audio_url ?? null, null);
  assert.equal((await json(await fetch(`${base}/v1/articles/${ARTICLE.slug}`))).audio_ready, false);

  // The editor plays it, the words highlighted as it goes.
  await page.locator(".controls:not([hidden])").waitFor();
  await checkEverywhere(page, "/studio/{publisher}/articles/{slug}");
  await page.getByRole("button", { name: "Play" }).click();
  await page.locator(".w.current, [data-start].current").first().waitFor({ timeout: 15_000 });
  await page.getByRole("button", { name: "Pause" }).click();

  // The list shows it waiting, and filters by state.
  await page.goto(`${base}/studio/${P}?state=awaiting_review`);
  await page.getByRole("link", { name: ARTICLE.title }).waitFor();
  await checkEverywhere(page, "/studio/{publisher}");

  // Pronunciation by ear: an entry, the preview heard, the affected article re-rendered.
  await page.getByRole("link", { name: "Lexicon" }).click();
  await page.getByLabel("Word or name").fill("Nguyen");
  await page.getByLabel("Say it as (words)").fill("win");
  await page.getByRole("button", { name: "Add" }).click();
  await page.locator("li strong", { hasText: "Nguyen" }).waitFor();
  await page.getByLabel("A sentence").fill("Harbour master Nguyen.");
  await page.getByRole("button", { name: "Hear it" }).click();
  const preview = page.locator("audio[src*='/lexicon/preview']");
  await preview.waitFor();
  await page.waitForFunction(() => document.querySelector("audio")?.readyState >= 1, null, { timeout: 30_000 });
  assert.ok((await preview.evaluate((a) => a.duration)) > 0.3, "the preview plays");
  await checkEverywhere(page, "/studio/{publisher}/lexicon");

  await page.goto(`${base}/studio/${P}/articles/${ARTICLE.slug}`);
  await page.getByRole("button", { name: "Re-render" }).click();
  await waitForState(page, "awaiting review");

  // A viewer sees it but cannot release it.
  const viewer = await signedIn("viewer@example.com");
  await viewer.goto(`${base}/studio/${P}/articles/${ARTICLE.slug}`);
  assert.equal(await viewer.getByRole("button", { name: "Release to listeners" }).count(), 0);
  const csrf = await viewer.locator("input[name=csrf]").first().inputValue();
  const forced = await viewer.request.post(`${base}/studio/${P}/articles/${ARTICLE.slug}/release`, {
    form: { csrf },
    headers: { Origin: base },
    maxRedirects: 0,
  });
  assert.equal(forced.status(), 403);

  await page.getByRole("button", { name: "Release to listeners" }).click();
  await waitForState(page, "done");
  const record = await json(await fetch(`${base}/v1/articles/${ARTICLE.slug}`));
  assert.equal(record.audio_ready, true);
  // The feed has it now (the topic's feed, built afresh: service.xml above is cached for its TTL).
  assert.match(await (await fetch(`${base}/v1/podcasts/service-science.xml`)).text(), new RegExp(ARTICLE.slug));
});

/** A webhook receiver on loopback: answers 204 and keeps every request it gets. */
function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, received, url: `http://127.0.0.1:${server.address().port}/hooks` })));
}

/** Reloads `page` at `url` until `ready` holds for it. */
async function reloadUntil(page, url, ready, what, timeoutMs = 60_000) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; ) {
    await page.goto(url);
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} never showed`);
}

test("an editor sees the listening numbers after a few plays and downloads them; adds a webhook endpoint and sees its signed delivery; a viewer cannot add one", async () => {
  const base = platform.base;
  // Runs after the review test: the article is released. Two apps download it whole (IAB: the whole file counts).
  const record = await json(await fetch(`${base}/v1/articles/${ARTICLE.slug}`));
  assert.equal(record.audio_ready, true);
  for (const app of ["AppleCoreMedia/1.0.0.21A329 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)", "Overcast/3.0 (+http://overcast.fm/; iOS podcast app)"]) {
    const res = await fetch(record.audio_url, { headers: { "User-Agent": app } });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  }

  const page = await signedIn("editor@example.com");
  await page.goto(`${base}/studio/${P}`);
  await page.getByRole("link", { name: "Listening numbers" }).click();
  await page.getByRole("heading", { name: "Listening numbers" }).waitFor();
  const stats = page.url();
  await reloadUntil(page, stats, async () => /^2 downloads/.test((await page.locator("figcaption").textContent()) ?? ""), "two downloads");
  await page.getByText(`${ARTICLE.title}: 2`).waitFor();
  await page.getByText("Apple Podcasts: 1").waitFor();
  await checkEverywhere(page, "/studio/{publisher}/stats", "studio-stats");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the days as CSV" }).click()]);
  const csv = readFileSync(await download.path(), "utf8")
    .trim()
    .split("\r\n");
  assert.equal(csv[0], "date,downloads,listeners,starts,completions,agent_plays");
  assert.equal(csv.at(-1), `${new Date().toISOString().slice(0, 10)},2,2,0,0,0`);

  // Webhooks: an endpoint on loopback, its secret shown once.
  const receiver = await startReceiver();
  try {
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = await page.locator("#webhook-secret").textContent();
    assert.match(secret, /^whsec_/);
    await checkEverywhere(page, "/studio/{publisher}/webhooks (secret shown once)");

    // An event: a re-render, which waits for review, announces narration.awaiting_review.
    await page.goto(`${base}/studio/${P}/articles/${ARTICLE.slug}`);
    await page.getByRole("button", { name: "Re-render" }).click();
    for (const until = Date.now() + 120_000; receiver.received.length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 500));
    assert.ok(receiver.received.length > 0, "the receiver got a delivery");
    const [first] = receiver.received;
    const event = new Webhook(secret).verify(first.body, first.headers);
    assert.equal(event.type, "narration.awaiting_review");
    assert.equal(event.data.article.slug, ARTICLE.slug);

    const hooks = `${base}/studio/${P}/webhooks`;
    await reloadUntil(page, hooks, async () => (await page.locator('[data-state="delivered"]').count()) > 0, "the delivered delivery");
    assert.equal(await page.locator("#webhook-secret").count(), 0, "the secret is shown only once");
    await page.getByText("1 attempt (0 retries) · last: HTTP 204").first().waitFor();
    await checkEverywhere(page, "/studio/{publisher}/webhooks", "studio-webhooks");

    // A viewer sees the log, but has no form to add an endpoint, and a forced one is refused.
    const viewer = await signedIn("viewer@example.com");
    await viewer.goto(hooks);
    await viewer.locator('[data-state="delivered"]').first().waitFor();
    assert.equal(await viewer.getByRole("button", { name: "Add endpoint" }).count(), 0);
    assert.equal(await viewer.getByRole("button", { name: "Remove" }).count(), 0);
    const csrf = await viewer.locator("input[name=csrf]").first().inputValue();
    const forced = await viewer.request.post(hooks, {
      form: { csrf, url: `${receiver.url}/viewer`, events: "narration.ready" },
      headers: { Origin: base },
      maxRedirects: 0,
    });
    assert.equal(forced.status(), 403);
    await checkEverywhere(viewer, "/studio/{publisher}/webhooks (viewer)");
  } finally {
    receiver.server.close();
  }
});
