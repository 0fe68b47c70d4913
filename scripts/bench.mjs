// `npm run bench`: starts the platform on its own port and state, and beside it a hello-world Worker
// under the same wrangler (the floor every hot path is compared with), runs every bench/*.bench.mjs,
// prints the tables and writes them to bench/results.md.
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { ensureDevVars, migrate, readVars, startDev, startWorker } from "./local.mjs";
import { hotPathTable } from "../bench/http.mjs";

/** The API on BENCH_PORT, hello-world on the next port, the render Worker on the one after. */
const PORT = Number(process.env.BENCH_PORT ?? 8899);
/** The API isolate's DevTools endpoint (the soak reads its heap there; bench/profile.mjs uses the same port). */
const INSPECTOR_PORT = PORT + 10;
const STATE = ".wrangler/bench-state";
/**
 * Per-IP budgets high enough that no bench request is refused, but not off: the limiter's cost is
 * part of every hot path, as it is in production (docs/rules.md "Rules" 8).
 */
const LIMITS = {
  RATE_LIMIT_READ_PER_MINUTE: "6000000",
  RATE_LIMIT_ADMIN_PER_MINUTE: "6000000",
  RATE_LIMIT_FEEDS_PER_MINUTE: "6000000",
  RATE_LIMIT_PAGES_PER_MINUTE: "6000000",
};

ensureDevVars();
rmSync(STATE, { recursive: true, force: true });
migrate(STATE);
const hello = await startWorker({
  port: PORT + 1,
  persistTo: ".wrangler/bench-hello-state",
  quiet: true,
  configs: ["-c", "bench/hello-world/wrangler.toml"],
  readyPath: "/",
});
const { child, base } = await startDev({ port: PORT, renderPort: PORT + 2, persistTo: STATE, quiet: true, vars: LIMITS, inspectorPort: INSPECTOR_PORT });

const rows = [];
const hotPaths = [];
const only = process.argv[2];
try {
  const files = readdirSync("bench")
    .filter((f) => f.endsWith(".bench.mjs") && (!only || f.includes(only)))
    .sort();
  for (const file of files) {
    console.log(`running ${file}`);
    const mod = await import(`../bench/${file}`);
    const out = await mod.run({
      base,
      apiPid: child.children[0].pid,
      inspectorPort: INSPECTOR_PORT,
      hello: hello.base,
      port: PORT,
      vars: readVars(),
      persistTo: STATE,
    });
    if (Array.isArray(out)) rows.push(...out);
    else {
      rows.push(...(out.rows ?? []));
      hotPaths.push(...(out.hotPaths ?? []));
    }
  }
} finally {
  child.kill();
  hello.child.kill();
}

const header = "| benchmark | metric | value | unit |\n|---|---|---:|---|\n";
const table = `${header}${rows.map((r) => `| ${r.benchmark} | ${r.metric} | ${r.value} | ${r.unit} |`).join("\n")}\n`;
const hot = hotPaths.length ? `## Hot paths against hello-world\n\n${hotPathTable(hotPaths)}\n` : "";
console.log(`\n${hot}${table}`);
const machine = `${process.platform}/${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}`;
writeFileSync(
  "bench/results.md",
  `# Benchmarks\n\nMeasured by \`npm run bench${only ? ` ${only}` : ""}\` on ${new Date().toISOString().slice(0, 10)}, ${machine}, local workerd through wrangler dev (one machine).\n\n${hot}## All measurements\n\n${table}`,
);
process.exit(0);
