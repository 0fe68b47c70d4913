// `npm run screenshots`: PNGs of each web page at 390 px (a phone) and 1280 px (a laptop) wide, into
// screenshots/ (gitignored). Starts its own platform on PORT (default 8806) with the demo articles;
// BASE=http://127.0.0.1:8787 uses one already running instead (`npm start`). The listener's pages are
// taken signed in, through the mailed link of the local outbox (MAIL_OUTBOX=true).
import { mkdirSync } from "node:fs";
import { launchBrowser } from "./browser.mjs";
import { startPlatform } from "../test-browser/support/platform.mjs";
import { seed, seedArticles } from "./seed.mjs";

const OUT = "screenshots";
const WIDTHS = [
  { name: "390", width: 390, height: 844 },
  { name: "1280", width: 1280, height: 800 },
];
const LISTENER_EMAIL = "screenshots@example.test";
/** The listener's pages under /listen, signed in: overview, queue, flo, account, the delete confirmation, and a page shared to the web app. */
const LISTENER_PAGES = ["", "/queue", "/flo", "/account", "/delete", "/share?text=https%3A%2F%2Fexample.com%2F2026%2Fan-article"];

let platform;
const base =
  process.env.BASE ?? (platform = await startPlatform(Number(process.env.PORT ?? 8806), ".wrangler/screenshots-state", {}, { languages: true })).base;
/** A demo article written right to left (Arabic), taken as it is: narrated or still waiting. */
const RTL_ARTICLE = "maktaba-mutanaqqila-fi-al-qura";
const browser = await launchBrowser();

/** A demo article, once narrated (seeding is idempotent: a running platform keeps its renders). */
async function narratedDemo() {
  await seed(base);
  const slugs = seedArticles().map((a) => a.slug);
  for (let i = 0; i < 240; i++) {
    for (const slug of slugs) {
      const record = await (await fetch(`${base}/v1/articles/${slug}`)).json();
      if (record.audio_ready) return slug;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("no demo article was narrated within 2 minutes");
}

/** Signs `context` in as a listener with a subscription, through the sign-in mail; false when the pages are absent. */
async function signIn(context) {
  const page = await context.newPage();
  const res = await page.goto(`${base}/listen`);
  if (res.status() === 404) return false;
  await fetch(`${base}/v1/listeners/subscribe`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: LISTENER_EMAIL, verticals: ["tech", "science"] }),
  });
  await page.goto(`${base}/sign-in?next=/listen`).catch(() => undefined);
  if (!(await page.getByLabel("E-mail address").count())) await page.goto(`${base}/listen`);
  await page.getByLabel("E-mail address").first().fill(LISTENER_EMAIL);
  await page.getByRole("button", { name: /sign-in link/i }).click();
  let link;
  for (let i = 0; i < 50 && !link; i++) {
    const { messages } = await (await fetch(`${base}/v1/dev/outbox?limit=10`)).json();
    link = /http:\/\/\S+\/sign-in\/confirm\?\S+/.exec(messages.find((m) => m.to === LISTENER_EMAIL)?.text ?? "")?.[0];
    if (!link) await new Promise((r) => setTimeout(r, 200));
  }
  await page.goto(link);
  await page.getByRole("button", { name: "Continue signing in" }).click();
  await page.waitForLoadState("load");
  await page.close();
  return true;
}

async function shoot(context, name, path, size, { fullPage = true, height } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width: size.width, height: height ?? size.height });
  await page.goto(`${base}${path}`);
  await page.waitForLoadState("load");
  const file = `${OUT}/${name}-${size.name}.png`;
  await page.screenshot({ path: file, fullPage });
  await page.close();
  console.log(`- ${file}`);
}

try {
  mkdirSync(OUT, { recursive: true });
  const slug = await narratedDemo();
  const listener = await browser.newContext();
  const signedIn = await signIn(listener);
  for (const size of WIDTHS) {
    const context = await browser.newContext();
    await shoot(context, "home", "/", size);
    await shoot(context, "article", `/articles/${slug}`, size);
    await shoot(context, "article-rtl", `/articles/${RTL_ARTICLE}`, size);
    // The embed as a publisher's iframe shows it: the snippet's height.
    await shoot(context, "embed", `/embed/article/${slug}`, size, { fullPage: false, height: 420 });
    if (signedIn) await shoot(context, "listen-signed-out", "/listen", size);
    await context.close();
    if (signedIn) for (const p of LISTENER_PAGES) await shoot(listener, `listen${p.split("?")[0].replace("/", "-")}`, `/listen${p}`, size);
  }
  if (!signedIn) console.log("(no listener pages on this platform: /listen answered 404)");
} finally {
  await browser.close();
  platform?.child.kill();
}
