// `npm run bench`: starts the platform on its own port and state, runs every bench/*.bench.mjs,
// prints one table and writes it to bench/results.md.
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { ensureDevVars, migrate, readVars, startDev } from "./local.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8899);
const STATE = ".wrangler/bench-state";

ensureDevVars();
rmSync(STATE, { recursive: true, force: true });
migrate(STATE);
const { child, base } = await startDev({ port: PORT, persistTo: STATE, quiet: true, vars: { RATE_LIMIT_READ_PER_MINUTE: "0", RATE_LIMIT_ADMIN_PER_MINUTE: "0", RATE_LIMIT_FEEDS_PER_MINUTE: "0" } });

const rows = [];
const only = process.argv[2];
try {
  const files = readdirSync("bench").filter((f) => f.endsWith(".bench.mjs") && (!only || f.includes(only))).sort();
  for (const file of files) {
    console.log(`running ${file}`);
    const mod = await import(`../bench/${file}`);
    rows.push(...(await mod.run({ base, vars: readVars(), persistTo: STATE })));
  }
} finally {
  child.kill();
}

const header = "| benchmark | metric | value | unit |\n|---|---|---:|---|\n";
const table = header + rows.map((r) => `| ${r.benchmark} | ${r.metric} | ${r.value} | ${r.unit} |`).join("\n") + "\n";
console.log(`\n${table}`);
writeFileSync(
  "bench/results.md",
  `# Benchmarks\n\nMeasured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}, ${process.platform}/${process.arch}, local workerd through wrangler dev (one machine).\n\n${table}`,
);
process.exit(0);
