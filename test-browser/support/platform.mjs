// The platform of the browser tests: wrangler dev on its own port and state folder
// (fresh each run); the browser is scripts/browser.mjs.
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import { putEngineData } from "../../scripts/engine-data.mjs";
import { ensureDevVars, migrate, readVars, startDev } from "../../scripts/local.mjs";
import { signature } from "../../scripts/seed.mjs";

/**
 * Starts the platform on `port` with an empty database under `state` and `vars` set; resolves to { child, base }.
 * `languages`: the offline engine's data beyond English is put in its R2 first, as `npm start` does (about 20 s).
 */
export async function startPlatform(port, state, vars = {}, { languages = false } = {}) {
  ensureDevVars();
  rmSync(state, { recursive: true, force: true });
  migrate(state);
  if (languages) putEngineData(["--local", "--persist-to", state], "ignore");
  const base = `http://127.0.0.1:${port}`;
  return startDev({ port, persistTo: state, quiet: true, vars: { BASE_URL: base, WEB_URL: base, MAIL_OUTBOX: "true", ...vars } });
}

/** Publishes `article` through the signed webhook, as a publisher's CMS does; its narration is queued, not awaited. */
export async function publish(base, article) {
  const body = JSON.stringify(article);
  const res = await fetch(`${base}/v1/webhook/publish`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-legacy-signature": signature(readVars().PUBLISH_WEBHOOK_SECRET, body) },
    body,
  });
  if (!res.ok) throw new Error(`publishing ${article.slug} answered ${res.status}: ${await res.text()}`);
}

/** Publishes `article` through the signed webhook, as a publisher's CMS does, and waits for its narration. */
export async function publishNarrated(base, article, timeoutMs = 90_000) {
  await publish(base, article);
  for (const until = Date.now() + timeoutMs; Date.now() < until; ) {
    const record = await (await fetch(`${base}/v1/articles/${article.slug}`)).json();
    if (record.audio_ready) return record;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${article.slug} was not narrated within ${timeoutMs / 1000} s`);
}

/**
 * A page of another site (a publisher's) that frames `src`: http://localhost:<port>/?src=... The
 * platform is at 127.0.0.1, so the frame is cross-site, not only cross-origin.
 */
export function startFramingSite() {
  const server = createServer((req, res) => {
    const src = new URL(req.url, "http://x").searchParams.get("src") ?? "";
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    const escaped = src.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
    res.end(
      `<!doctype html><html lang="en"><title>A publisher</title><h1>A publisher's article</h1><iframe src="${escaped}" title="Listen" width="600" height="420"></iframe>`,
    );
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, origin: `http://localhost:${server.address().port}` })));
}
