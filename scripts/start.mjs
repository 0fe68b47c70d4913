// `npm start`: the whole platform on one machine, offline: migrations, both Workers, demo articles.
// The terminal gets a few lines of progress and one ready line; wrangler's full output goes to LOG_PATH.
import { ensureDevVars, migrate, openLog, startDev } from "./local.mjs";
import { seed } from "./seed.mjs";

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

console.log("- publishing the demo articles (their narration renders in the background)");
try {
  await seed(base);
} catch (err) {
  console.error(`seeding failed: ${err.message}`);
}
console.log(`Ready: home page ${base}/  podcast feed ${base}/v1/podcasts/service.xml  API docs ${base}/openapi.json  (log: ${LOG_PATH})`);
