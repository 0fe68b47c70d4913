// `npm run profile [label]`: where the API isolate spends its time on each hot path. Starts the
// platform as `npm run bench` does, with wrangler's DevTools endpoint on the API Worker, runs each hot
// path whose label contains the argument (bench/hot-paths.bench.mjs) under V8's sampling profiler, and
// prints the functions with the most self time and with the most total time (callees included),
// and the share of samples the isolate was idle.
import { rmSync } from "node:fs";
import { ensureDevVars, migrate, readVars, startDev } from "../scripts/local.mjs";
import { devtools } from "./devtools.mjs";
import { load, ROUND } from "./http.mjs";
import { hotPaths } from "./hot-paths.bench.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8899);
const INSPECTOR_PORT = PORT + 10;
const STATE = ".wrangler/profile-state";
const TOP = 25;
const LIMITS = { RATE_LIMIT_READ_PER_MINUTE: "6000000", RATE_LIMIT_ADMIN_PER_MINUTE: "6000000", RATE_LIMIT_FEEDS_PER_MINUTE: "6000000" };

/** Self time by function (name, file and line) of a V8 CPU profile, largest first, in percent of all samples. */
function selfTimes(profile) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of profile.samples) {
    const { functionName, url, lineNumber } = byNode.get(id).callFrame;
    const file = url.split("/").pop() || "(native)";
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length;
  return [...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, percent: (100 * n) / total }));
}

/**
 * Total time by function (self plus callees), largest first, in percent of all samples: where a
 * request's time goes below our own functions, which self time scatters over the SDK's and the runtime's.
 */
function totalTimes(profile) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map();
  for (const id of profile.samples) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byNode.get(at).callFrame;
      if (!url) continue; // (root), (program), (idle), native frames
      const key = `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
      if (seen.has(key)) continue; // recursion counts once
      seen.add(key);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const total = profile.samples.length;
  return [...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, percent: (100 * n) / total }));
}

ensureDevVars();
rmSync(STATE, { recursive: true, force: true });
migrate(STATE);
const { child, base } = await startDev({ port: PORT, renderPort: PORT + 2, persistTo: STATE, quiet: true, vars: LIMITS, inspectorPort: INSPECTOR_PORT });
try {
  const session = await devtools(INSPECTOR_PORT);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 100 });
  const only = process.argv[2];
  for (const [label, request] of await hotPaths({ base, vars: readVars(), persistTo: STATE })) {
    if (only && !label.includes(only)) continue;
    await load(request, { total: 200 }); // warm: compiled code, filled caches
    await session.send("Profiler.start");
    const { rps } = await load(request, { total: ROUND });
    const { profile } = await session.send("Profiler.stop");
    const rows = selfTimes(profile);
    const idle = rows.find((r) => r.name.startsWith("(idle)"))?.percent ?? 0;
    console.log(`\n${label}: ${rps.toFixed(0)} req/s while profiled; isolate idle ${idle.toFixed(1)} % of samples`);
    console.log("  self time:");
    for (const r of rows.filter((r) => !r.name.startsWith("(idle)")).slice(0, TOP)) console.log(`  ${r.percent.toFixed(1).padStart(5)} %  ${r.name}`);
    console.log("  total time (self and callees):");
    for (const r of totalTimes(profile).slice(0, TOP)) console.log(`  ${r.percent.toFixed(1).padStart(5)} %  ${r.name}`);
  }
  session.close();
} finally {
  child.kill();
}
process.exit(0);
