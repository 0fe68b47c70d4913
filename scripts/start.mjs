// `npm start`: the whole platform on one machine, offline: migrations, both Workers, demo articles.
// The terminal gets a few lines of progress and one ready line; wrangler's full output goes to LOG_PATH.
import { putLocalEngineData } from "./engine-data.mjs";
import { ensureDevVars, migrate, openLog, startDev } from "./local.mjs";
import { DEMO_MEMBER, seed, seedStudioMember } from "./seed.mjs";

const LOG_PATH = ".wrangler/start.log";
const port = Number(process.env.PORT ?? 8787);
const log = openLog(LOG_PATH);

console.log(`Starting the narration platform on port ${port}; wrangler's full output: ${LOG_PATH}`);
ensureDevVars();
console.log("- applying the database migrations");
let child;
let base;
try {
  migrate(undefined, log);
  console.log("- putting the offline engine's languages in local R2");
  putLocalEngineData();
  console.log("- starting the API and render Workers");
  // When PORT moves the server, the links the service hands out must move with it.
  const vars = process.env.PORT ? { BASE_URL: `http://127.0.0.1:${port}`, WEB_URL: `http://127.0.0.1:${port}` } : {};
  ({ child, base } = await startDev({ port, vars, log }));
} catch (err) {
  console.error(`Could not start: ${err.message}`);
  process.exit(1);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => {
  if (code) console.error(`wrangler dev stopped (exit ${code}); see ${LOG_PATH}`);
  process.exit(code ?? 0);
});

console.log("- publishing the demo articles; their narration renders in the background");
try {
  await seed(base);
  await seedStudioMember(base);
} catch (err) {
  fail(`seeding failed: ${err.message}`);
}
// Ready only once narration is shown to work: a platform that serves pages but narrates nothing
// must say so here, not in a log the newcomer never opens.
const first = await watchNarration(base, { untilFirst: true });
if (first.problem) fail(`the demo articles cannot be narrated: ${first.problem}`);
console.log(`Ready: home page ${base}/  podcast feed ${base}/v1/podcasts/service.xml  API docs ${base}/openapi.json  (log: ${LOG_PATH})`);
// The link is bound to the browser that asks for it, so the member asks on the page and reads the mail in the outbox.
console.log(
  `Studio: ${base}/studio  sign in as ${DEMO_MEMBER.email} (${DEMO_MEMBER.role} of ${DEMO_MEMBER.publisher}); the sign-in mail arrives in the local outbox ${base}/v1/dev/outbox`,
);
const all = await watchNarration(base, { untilFirst: false });
if (all.problem) console.error(`Narration is failing: ${all.problem} (see ${LOG_PATH})`);
else console.log("- every demo article is narrated");

/** Prints `message` with the log's path, stops the platform and exits with 1. */
function fail(message) {
  console.error(`${message} (see ${LOG_PATH})`);
  child.kill("SIGTERM");
  process.exit(1);
}

/**
 * Waits until a render has succeeded (`untilFirst`) or no render job is left, reading the platform's
 * own health: GET /v1/health says degraded, with the reason, when render jobs failed or the render
 * Worker does not answer. Resolves with { problem } (null when narration works).
 */
async function watchNarration(base, { untilFirst }) {
  for (;;) {
    const [health, worker] = await Promise.all([get(`${base}/v1/health`), get(`${base}/v1/health/worker`)]);
    if (health.status !== "ok") return { problem: health.reasons.join("; ") };
    if (worker.active_queue === 0 || (untilFirst && worker.last_render_at)) return { problem: null };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function get(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.json();
}
