// The MCP Apps views (issue 47; docs/agents/apps.md "A player inside the chat") in a real browser, shown by a test
// host as a web chat shows them (support/apps-host.mjs: the extension SDK's AppBridge in the page, a sandbox
// proxy on another origin enforcing the resource's CSP, the MCP connection and the payments in its backend).
// Each view is read over MCP (resources/read) from the platform under wrangler dev, gets the tool's result,
// and talks to the server only through the host: the player plays to its end with the transcript lit word by
// word, an article without audio is rendered through get_audio_url called by the view, search results play in
// place, and a request to an origin the CSP does not declare is blocked. `npm run test:browser` (PORT moves it,
// default 8808).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchBrowser } from "../scripts/browser.mjs";
import { hostBackend, startHostSite } from "./support/apps-host.mjs";
import { publish, publishNarrated, startPlatform } from "./support/platform.mjs";

const PORT = Number(process.env.PORT ?? 8808);
const STATE = ".wrangler/browser-test-apps-state";

/** Paragraphs about one subject, each of about twenty words. */
const body = (subject, n) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} on ${subject}: the keepers log the light, the fog and the passing ships every single night.`).join(
    "\n\n",
  );

const NARRATED = {
  slug: "lighthouse-keepers",
  title: "Lighthouse Keepers",
  publisher: "Coast Weekly",
  vertical: "culture",
  summary: "Keepers.",
  body_text: body("lighthouses", 2),
};
/** Published during the tests, and long enough that its render is still queued when the model asks for it. */
const FRESH = {
  slug: "lighthouse-lenses",
  title: "Lighthouse Lenses",
  publisher: "Coast Weekly",
  vertical: "culture",
  summary: "Lenses.",
  body_text: body("lenses", 8),
};
const LISTED = {
  slug: "lighthouse-fog",
  title: "Lighthouse Fog Signals",
  publisher: "Coast Weekly",
  vertical: "culture",
  summary: "Fog.",
  body_text: body("fog", 8),
};

let platform;
let browser;
let site;
let backend;

before(async () => {
  // The server answers a pending render at once, so the view's own wait is what the tests see.
  platform = await startPlatform(PORT, STATE, { AGENT_AUDIO_WAIT_SECONDS: "0" });
  [browser, site] = await Promise.all([launchBrowser(), startHostSite(), publishNarrated(platform.base, NARRATED)]);
  backend = await hostBackend(platform.base);
});

after(async () => {
  await backend?.close();
  await browser?.close();
  site?.close();
  platform?.child.kill();
});

/** The chat page showing the view of `tool` for the model's call with `args`; resolves to the view's frame. */
async function showView(tool, args) {
  const result = await backend.callTool(tool, args, "model");
  const { html, csp } = await backend.view(tool);
  const page = await (await browser.newContext()).newPage();
  await page.exposeFunction("hostCallTool", (params) => backend.callTool(params.name, params.arguments ?? {}, "view"));
  await page.goto(site.origin);
  await page.waitForFunction(() => typeof window.showView === "function");
  await page.evaluate((shown) => window.showView(shown), { html, csp, args, result: JSON.parse(JSON.stringify(result)), sandbox: site.sandbox });
  const frame = page.frames().find((f) => f.parentFrame()?.url().startsWith(site.sandbox));
  assert.ok(frame, "the view's frame is inside the sandbox proxy");
  return { page, frame, result };
}

/** Waits until `predicate` (run in the frame) holds, or fails naming `what`. */
async function until(frame, predicate, what, arg, timeout = 30_000) {
  try {
    await frame.waitForFunction(predicate, arg, { timeout, polling: 100 });
  } catch {
    assert.fail(`timed out waiting until ${what}`);
  }
}

/** The audio's time and the lit words, read in one step. */
const litNow = (frame) =>
  frame.evaluate(() => {
    const words = [...document.querySelectorAll(".w")];
    return {
      t: document.querySelector("audio").currentTime,
      ended: document.querySelector("audio").ended,
      lit: words.flatMap((w, i) => (w.classList.contains("current") ? [i] : [])),
    };
  });

test("the player plays get_audio_url's audio to its end, the transcript lit word by word, at the speed chosen", async () => {
  const { page, frame, result } = await showView("get_audio_url", { slug: NARRATED.slug });
  assert.equal(result.structuredContent.state, "ready");
  await until(frame, () => document.querySelectorAll(".transcript .w").length > 0, "the transcript is shown");
  assert.equal(await frame.locator("h1").textContent(), NARRATED.title);
  assert.equal(await frame.locator(".publisher").textContent(), NARRATED.publisher);
  // Title and publisher came through the host: the view called get_article, not the server.
  assert.ok(backend.calls.some((c) => c.by === "view" && c.name === "get_article" && c.args.slug === NARRATED.slug));
  assert.equal(await frame.locator("audio").evaluate((a) => a.src), result.structuredContent.audio_url);

  const starts = await frame.locator(".w").evaluateAll((ws) => ws.map((w) => Number(w.dataset.s)));
  assert.ok(starts.length > 30, "every word is timed, the title's in the heading");
  assert.ok((await frame.locator("h1 .w").count()) > 0);
  await frame.locator(".speed select").selectOption("1.5");
  assert.equal(await frame.locator("audio").evaluate((a) => a.playbackRate), 1.5);
  await frame.locator("audio").evaluate((a) => a.play());

  // The word spoken at each moment is the one lit (the last to have started), within a frame or two.
  const seen = new Set();
  for (let now = await litNow(frame); !now.ended; now = await litNow(frame)) {
    if (now.t > 0.2) {
      assert.equal(now.lit.length, 1, `one word lit at ${now.t}`);
      const spoken = starts.findLastIndex((s) => s <= now.t);
      assert.ok(Math.abs(now.lit[0] - spoken) <= 1, `word ${now.lit[0]} lit at ${now.t}, word ${spoken} spoken`);
      seen.add(now.lit[0]);
    }
    await page.waitForTimeout(150);
  }
  assert.ok(seen.size > starts.length / 3, `the highlight moved through the text (${seen.size} of ${starts.length} words seen lit)`);
  assert.deepEqual((await litNow(frame)).lit, [starts.length - 1], "the last word is lit at the end");
  await page.context().close();
});

test("an article without audio: the view calls get_audio_url through the host, shows the wait, and plays once rendered", async () => {
  await publish(platform.base, FRESH);
  const { page, frame, result } = await showView("get_audio_url", { slug: FRESH.slug });
  assert.equal(result.structuredContent.state, "pending", "the render was still queued when the model asked");
  await until(frame, () => /Rendering the narration/.test(document.querySelector(".status").textContent), "the wait is shown");
  await until(frame, () => !document.querySelector("audio").paused && document.querySelector("audio").currentTime > 0, "the audio plays", undefined, 90_000);
  const asked = backend.calls.filter((c) => c.by === "view" && c.name === "get_audio_url");
  assert.ok(asked.length >= 1 && asked.every((c) => c.args.slug === FRESH.slug));
  const last = asked.at(-1).result.structuredContent;
  assert.equal(last.state, "ready");
  assert.equal(await frame.locator("audio").evaluate((a) => a.src), last.audio_url);
  await until(frame, () => document.querySelectorAll(".transcript .w").length > 0, "the transcript of the new audio is shown");
  await page.context().close();
});

test("search results play in place; one without audio is rendered through the host first", async () => {
  await publish(platform.base, LISTED);
  const { page, frame, result } = await showView("search_articles", { query: "lighthouse" });
  const found = result.structuredContent.articles;
  assert.equal(found.find((a) => a.slug === NARRATED.slug)?.audio_url?.length > 0, true);
  assert.equal(found.find((a) => a.slug === LISTED.slug)?.audio_url, null);
  const item = (slug) => frame.locator(`li[data-slug="${slug}"]`);
  await until(frame, (slug) => document.querySelector(`li[data-slug="${slug}"]`), "the results are listed", LISTED.slug);
  assert.equal(await item(LISTED.slug).locator("h2").textContent(), LISTED.title);

  const viewCalls = () => backend.calls.filter((c) => c.by === "view").length;
  const before = viewCalls();
  await item(NARRATED.slug).locator("button.play").click();
  await until(frame, (slug) => document.querySelector(`li[data-slug="${slug}"] audio`)?.currentTime > 0, "the first result plays in place", NARRATED.slug);
  assert.equal(viewCalls(), before, "audio that exists plays without a call");

  await item(LISTED.slug).locator("button.play").click();
  await until(
    frame,
    (slug) => document.querySelector(`li[data-slug="${slug}"] audio`)?.currentTime > 0,
    "the second result plays once rendered",
    LISTED.slug,
    90_000,
  );
  assert.ok(backend.calls.some((c) => c.by === "view" && c.name === "get_audio_url" && c.args.slug === LISTED.slug));
  await page.context().close();
});

test("the view reaches no origin but BASE_URL's: a request elsewhere is blocked by its CSP", async () => {
  const { page, frame } = await showView("get_audio_url", { slug: NARRATED.slug });
  await until(frame, () => document.querySelectorAll(".transcript .w").length > 0, "the transcript, fetched from BASE_URL, is shown");
  const attempt = await frame.evaluate(async (url) => {
    const violation = new Promise((resolve) => document.addEventListener("securitypolicyviolation", (e) => resolve(e.effectiveDirective), { once: true }));
    const fetched = await fetch(url).then(
      () => "fetched",
      () => "refused",
    );
    return { fetched, directive: await violation };
  }, `${site.origin}/probe`);
  assert.deepEqual(attempt, { fetched: "refused", directive: "connect-src" });
  assert.deepEqual(site.probes, [], "nothing reached the other origin");
  await page.context().close();
});
