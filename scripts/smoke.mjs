// `npm run smoke`: the README's first command end to end, as a newcomer runs it. In a fresh copy of
// this checkout (the files git would clone, with this node_modules), it runs `npm start` with PORT
// set and nothing else, and checks what a newcomer expects: every demo article narrated and no render
// job failed; a signed publish narrated to an MP3 that ffprobe reads, listed in service.xml and played
// on its article page in Chromium and paid for by the documented x402 wallet agent; a render job's
// stream played in Chromium to its end while it renders; a stop and a start
// that lose nothing and render nothing again.
// It fails on any 5xx answer, SQLITE_BUSY or error line in the platform's log. CI runs it after `npm test`.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { launchBrowser } from "./browser.mjs";
import { freshCopy, npmStart, untilNarrated } from "./fresh-start.mjs";
import { freePort, readVars } from "./local.mjs";
import { seedArticles, signature } from "./seed.mjs";
import { concurrentWriters } from "./writers.mjs";

const PUBLISHED_MS = 2 * 60_000;

const step = (text) => console.log(`smoke: ${text}`);
const dir = freshCopy();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const demo = seedArticles().map((a) => a.slug);
let platform;

try {
  step(`npm start in a fresh copy (${dir}), PORT=${port}`);
  platform = await npmStart(dir, port);
  await allNarrated(demo.length);
  const published = await publishOne();
  const german = await publishGerman();
  await playInBrowser(published);
  await listenToStream();
  payAsAnAgent(published.slug);
  await writeWhileRendering(published.slug);
  await allNarrated(0);
  await platform.stop();
  const before = readState();
  assert.equal(before.failed, 0, `${before.failed} render job(s) failed`);
  for (const slug of [...demo, published.slug, german]) assert.ok(before.audio[slug], `${slug} has no audio`);
  step(`stopped: ${demo.length + 2} articles narrated by ${before.jobs} jobs, none failed`);
  // The Queue's consumer hands every other job to the second render process (docs/narration.md "Two
  // render processes on one machine"): a broken hand-over would show only as retried renders.
  const peerJobs = readFileSync(path.join(dir, ".wrangler/start.log"), "utf8").match(/runs in the second render process/g)?.length ?? 0;
  assert.ok(peerJobs > 0, "the second render process rendered no job");
  step(`the second render process rendered ${peerJobs} of them`);

  step("npm start again");
  platform = await npmStart(dir, port);
  await allNarrated(0);
  const again = await (await fetch(`${base}/v1/articles/${published.slug}/audio`)).json();
  assert.equal(again.audio_url, published.audio.audio_url, "the published article kept its audio");
  await platform.stop();
  const after = readState();
  assert.equal(after.jobs, before.jobs, "the restart created render jobs");
  assert.deepEqual(after.audio, before.audio, "the restart changed some article's audio");
  step("restarted: nothing lost, nothing rendered again");

  platform = undefined;
  const log = readFileSync(path.join(dir, ".wrangler/start.log"), "utf8");
  const errors = log.split("\n").filter((line) => / 5\d\d /.test(line) || line.includes("SQLITE_BUSY") || line.includes("[ERROR]"));
  assert.deepEqual(errors, [], "the platform's log has 5xx answers, SQLITE_BUSY or errors");
  step("passed");
  rmSync(dir, { recursive: true, force: true });
} catch (err) {
  console.error(`smoke: FAILED: ${err.message}\nsmoke: the copy and its log are kept in ${dir} (.wrangler/start.log)`);
  process.exitCode = 1;
  await platform?.stop().catch(() => undefined);
}

/** Waits until every render job is done; says how long the demo's narration took after Ready when `expected` articles were. */
async function allNarrated(expected) {
  const waited = await untilNarrated(base);
  // Issue 44's "demo narrated within 60 s of Ready" is also read here (bench/demo.bench.mjs measures it).
  if (expected) step(`all ${expected} demo articles narrated ${(waited / 1000).toFixed(0)} s after Ready`);
}

/** Publishes `article` through the signed webhook and waits until it is narrated; its audio view. */
async function publishAndWait(article) {
  const body = JSON.stringify(article);
  const res = await fetch(`${base}/v1/webhook/publish`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-legacy-signature": signature(readVars(path.join(dir, ".dev.vars")).PUBLISH_WEBHOOK_SECRET, body) },
    body,
  });
  assert.equal(res.status, 200, `publish answered ${res.status}: ${await res.text()}`);
  let audio;
  for (const until = Date.now() + PUBLISHED_MS; Date.now() < until; await new Promise((r) => setTimeout(r, 1000))) {
    audio = await json(`/v1/articles/${article.slug}/audio`);
    assert.notEqual(audio.state, "failed", `${article.slug}'s render failed: ${audio.error}`);
    if (audio.state === "done") break;
  }
  assert.equal(audio.state, "done", `${article.slug} was not narrated within ${PUBLISHED_MS / 1000} s`);
  return audio;
}

/** Publishes one new article through the signed webhook and follows it to a playing MP3. */
async function publishOne() {
  const slug = `smoke-${Date.now()}`;
  const audio = await publishAndWait({
    slug,
    title: "A smoke test narrates this",
    publisher: "The Smoke Test",
    vertical: "tech",
    summary: "One article published the way a publisher's CMS publishes.",
    body_text: "The smoke test publishes this article through the signed webhook.\n\nIt waits for the narration, then plays it in a browser.",
    published_at: new Date().toISOString(),
    url: `https://example.test/${slug}`,
  });
  const mp3 = path.join(dir, `${slug}.mp3`);
  writeFileSync(mp3, Buffer.from(await (await fetch(audio.audio_url)).arrayBuffer()));
  const probe = JSON.parse(execFileSync("ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", mp3]).toString());
  assert.equal(probe.streams[0]?.codec_name, "mp3", "the audio is not an MP3");
  assert.ok(Number(probe.format.duration) > 2, `the MP3 lasts ${probe.format.duration} s`);
  const feed = await (await fetch(`${base}/v1/podcasts/service.xml`)).text();
  assert.ok(feed.includes(`/articles/${slug}`) || feed.includes(slug), "service.xml does not list the published article");
  step(`published ${slug}: narrated, a ${Number(probe.format.duration).toFixed(1)} s MP3, listed in service.xml`);
  return { slug, audio };
}

/** Publishes a German article (issue 42): narrated, in the German feed, its page in German. */
async function publishGerman() {
  const slug = `smoke-de-${Date.now()}`;
  await publishAndWait({
    slug,
    title: "Ein Rauchtest auf Deutsch",
    publisher: "The Smoke Test",
    vertical: "tech",
    body_text: "Dieser Artikel wird auf Deutsch vorgelesen.",
    language: "de",
  });
  const feed = await (await fetch(`${base}/v1/podcasts/service.xml?language=de`)).text();
  assert.ok(feed.includes("<language>de</language>") && feed.includes(slug), "service.xml?language=de does not list the German article");
  const page = await (await fetch(`${base}/articles/${slug}`)).text();
  assert.ok(page.includes('<html lang="de" dir="ltr">'), "the German article's page does not say lang=de");
  step(`published ${slug} in German: narrated, in service.xml?language=de, its page lang=de`);
  return slug;
}

/**
 * While a long article renders, 6 writers send 160 publishes, render jobs, subscribes and plays:
 * not one may answer 5xx (two processes on one SQLite file once answered SQLITE_BUSY here).
 */
/**
 * The documented wallet agent (docs/agents/payments.md "Paying agents") pays for the article's audio with the
 * official x402 client: a payment the Worker checks under workerd as deployed, where the test pool's
 * allowances (code generation from strings, for one) do not hold.
 */
function payAsAnAgent(slug) {
  const out = execFileSync(process.execPath, ["scripts/x402-wallet-agent.mjs", slug], {
    cwd: dir,
    env: { ...process.env, PORT: String(port) },
    encoding: "utf8",
  });
  assert.match(out, /^settled: .*"success":true/m, `the wallet agent's payment did not settle:\n${out}`);
  step(`an agent paid for ${slug}'s audio with the x402 client: settled`);
}

async function writeWhileRendering(playedSlug) {
  const vars = readVars(path.join(dir, ".dev.vars"));
  const slug = `smoke-long-${Date.now()}`;
  const paragraph = "The long article keeps the render Worker busy while the writers write. ".repeat(20);
  const body = JSON.stringify({
    slug,
    title: "A long article",
    publisher: "The Smoke Test",
    vertical: "news",
    body_text: Array(14).fill(paragraph).join("\n\n"),
  });
  const res = await fetch(`${base}/v1/webhook/publish`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-legacy-signature": signature(vars.PUBLISH_WEBHOOK_SECRET, body) },
    body,
  });
  assert.equal(res.status, 200, `publishing the long article answered ${res.status}`);
  for (let i = 0; i < 60 && (await json(`/v1/articles/${slug}/audio`)).state !== "running"; i++) await new Promise((r) => setTimeout(r, 500));
  const { statuses, failed } = await concurrentWriters({ base, vars, total: 160, concurrency: 6, playedSlug });
  const during = (await json(`/v1/articles/${slug}/audio`)).state;
  assert.deepEqual(failed, [], `writers got 5xx answers: ${JSON.stringify(statuses)}`);
  step(`160 concurrent writes while a long article rendered (${during} at the end): ${JSON.stringify(statuses)}`);
}

/** Plays the article on its page in Chromium until its audio has played for a second. */
async function playInBrowser({ slug }) {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/articles/${slug}`);
    const audio = page.locator("audio");
    await audio.evaluate((a) => a.play());
    await page.waitForFunction(() => document.querySelector("audio").currentTime > 1, undefined, { timeout: 20_000 });
    assert.equal(await audio.evaluate((a) => a.error), null, "the page's audio element reports an error");
    step("played on its article page in Chromium");
  } finally {
    await browser.close();
  }
}

/**
 * Starts a render job and plays its stream URL in Chromium while it renders, to its end
 * (docs/narration.md "Listening while it renders"); the job is then done and the URL its MP3.
 */
async function listenToStream() {
  const text = Array.from({ length: 4 }, (_, i) => `Paragraph ${i + 1} of the stream. The smoke test listens while the rest is voiced.`).join("\n\n");
  const created = await fetch(`${base}/v1/jobs`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-key": readVars(path.join(dir, ".dev.vars")).SERVICE_API_KEY },
    body: JSON.stringify({ text }),
  });
  assert.equal(created.status, 202, `POST /v1/jobs answered ${created.status}`);
  const { id } = await created.json();
  const url = `${base}/v1/jobs/${id}/stream.mp3`;
  const browser = await launchBrowser();
  let played;
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    played = await page.evaluate(
      (src) =>
        new Promise((resolve) => {
          const audio = new Audio(src);
          audio.playbackRate = 4;
          audio.onended = () => resolve({ ended: true, time: audio.currentTime, error: null });
          audio.onerror = () => resolve({ ended: false, time: audio.currentTime, error: audio.error?.message ?? "error" });
          audio.play().catch((err) => resolve({ ended: false, time: 0, error: String(err) }));
        }),
      url,
    );
    assert.deepEqual({ ended: played.ended, error: played.error }, { ended: true, error: null }, "Chromium did not play the stream to its end");
    assert.ok(played.time > 10, `the stream played ${played.time} s`);
  } finally {
    await browser.close();
  }
  // The stream ends with the last paragraph voiced; the job is done once the whole file is stored just after.
  let job;
  for (const until = Date.now() + 60_000; ; ) {
    job = await (await fetch(`${base}/v1/jobs/${id}`, { headers: { "x-service-key": readVars(path.join(dir, ".dev.vars")).SERVICE_API_KEY } })).json();
    if (job.state !== "running" || Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(job.state, "done", `the streamed job is ${job.state}`);
  const after = await fetch(url, { redirect: "manual" });
  assert.equal(after.status, 302, `the stream URL of a done job answered ${after.status}`);
  step(`played a job's stream in Chromium to its end (${played.time.toFixed(1)} s) while it rendered; the job is done`);
}

/** The platform's render jobs and each article's audio, read from its local D1 while it is stopped. */
function readState() {
  const query = (sql) =>
    JSON.parse(
      execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--json", "--command", sql], {
        cwd: dir,
        env: { ...process.env, CI: "true" },
      }).toString(),
    )[0].results;
  const [{ jobs, failed }] = query("SELECT count(*) AS jobs, sum(state = 'failed') AS failed FROM render_jobs");
  const audio = Object.fromEntries(query("SELECT slug, audio_key FROM articles").map((r) => [r.slug, r.audio_key]));
  return { jobs, failed: failed ?? 0, audio };
}

async function json(pathname) {
  const res = await fetch(`${base}${pathname}`);
  assert.ok(res.ok, `${pathname} answered ${res.status}`);
  return res.json();
}
