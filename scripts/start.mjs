// `npm start`: the whole platform on one machine, offline: migrations, both Workers, demo articles.
import { ensureDevVars, migrate, startDev } from "./local.mjs";
import { seed } from "./seed.mjs";

const port = Number(process.env.PORT ?? 8787);
ensureDevVars();
migrate();

// When PORT moves the server, the links the service hands out must move with it.
const vars = process.env.PORT ? { BASE_URL: `http://127.0.0.1:${port}`, WEB_URL: `http://127.0.0.1:${port}` } : {};
const { child, base } = await startDev({ port, vars });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));

try {
  await seed(base);
} catch (err) {
  console.error(`seeding failed: ${err.message}`);
}
console.log(`\nNarration platform ready on ${base}  (API: ${base}/v1/health, OpenAPI: ${base}/openapi.json)\n`);
