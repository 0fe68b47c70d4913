// `npm run mutation [-- <module>...]`: mutation testing of the modules in scripts/mutation-scope.mjs
// (issue 46). For each module, one mutant at a time (scripts/mutants.mjs): the file is rewritten, the
// module's covering tests run in the Workers pool, and the file is restored. A mutant the tests do not
// notice survives: a bug nobody would have seen. StrykerJS cannot do this here: its TypeScript checker
// needs the compiler API TypeScript 7 no longer has, and its vitest runner could not run the Workers
// pool (docs/testing.md "Mutation testing").
//
// One vitest stays open for the whole run (createVitest, then a rerun per mutant): a fresh one costs
// ~40 s here (both Workers built, the vite server started); a rerun transforms only the mutated file
// again, though the Worker runtime still starts anew each time. Every source file of the repository is
// invalidated in the pool's module cache, so no module keeps the previous mutant's bindings. The render Worker runs
// beside the tests as a bundle built once (scripts/render-test-worker.mjs): a mutant reaches only what
// the test files import themselves, so a module's tests must call it directly.
//
// The file under mutation is copied to .mutation/backup first and restored after each mutant, on
// Ctrl-C, on a kill and on a crash; a run that was killed harder restores it when the next one starts.
// Reports: .mutation/<module>.md (every mutant, the survivors with their diff) and the score table
// printed at the end, which docs/testing.md records.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createVitest } from "vitest/node";
import { applyMutant, mutantsOf } from "./mutants.mjs";
import { SCOPE } from "./mutation-scope.mjs";

// wrangler's notes on every start of the Worker runtime (secrets read, no network) drown the report.
process.env.WRANGLER_LOG ??= "error";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, ".mutation");
const BACKUP = path.join(OUT, "backup");
// The project without a queue consumer: the scoped modules are tested there.
const PROJECT = "narration";
// A mutant that makes its tests run this much longer than the unmutated run is an endless loop.
const TIMEOUT_FACTOR = 3;
const TIMEOUT_SLACK_MS = 30_000;
// The unmutated run: the first loads the Worker runtime (~40 s here).
const BASELINE_LIMIT_MS = 600_000;

restoreLeftovers();
const args = process.argv.slice(2);
// --mutant="11:90 template part removed": only the mutants of that key (a survivor checked again).
const only = args.filter((a) => a.startsWith("--mutant=")).map((a) => a.slice("--mutant=".length));
const wanted = args.filter((a) => !a.startsWith("--")).map((a) => path.relative(ROOT, path.resolve(a)));
const unknown = wanted.filter((m) => !SCOPE.some((s) => s.module === m));
if (unknown.length > 0) {
  console.error(`not in scripts/mutation-scope.mjs: ${unknown.join(", ")}`);
  process.exit(2);
}
const modules = wanted.length > 0 ? wanted.map((m) => SCOPE.find((s) => s.module === m)) : SCOPE;

let current; // { file, original } while a module is mutated
let sources; // the repository's source files, listed once
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    restore();
    process.exit(130);
  });
}
process.on("uncaughtException", (err) => {
  restore();
  console.error(err);
  process.exit(1);
});
process.on("exit", restore);

mkdirSync(BACKUP, { recursive: true });
const scores = [];
let vitest = await openVitest();
try {
  for (const entry of modules) scores.push(await mutateModule(entry));
} finally {
  restore();
  await vitest.close();
}
console.log("\nmodule | mutants | killed | survived | timeout | equivalent | score");
console.log("--- | --: | --: | --: | --: | --: | --:");
for (const s of scores) console.log(`${s.module} | ${s.total} | ${s.killed} | ${s.survived} | ${s.timeout} | ${s.equivalent} | ${s.score}`);
process.exit(scores.some((s) => s.baselineFailed) ? 1 : 0);

async function openVitest() {
  // Silent: the report is ours. watch: false, but the server stays open until close().
  return createVitest("test", { watch: false, project: [PROJECT], reporters: [{}], bail: 1, passWithNoTests: false });
}

async function mutateModule({ module, tests, equivalent = {} }) {
  const file = path.join(ROOT, module);
  const original = readFileSync(file, "utf8");
  const all = mutantsOf(module, original);
  const mutants = all.filter((m) => only.length === 0 || only.includes(m.key));
  const specs = tests.map((t) => vitest.getProjectByName(PROJECT).createSpecification(path.join(ROOT, t)));
  console.log(`\n${module}: ${mutants.length} mutants, tests ${tests.join(", ")}`);

  const started = Date.now();
  const baseline = await run(specs, file, BASELINE_LIMIT_MS);
  const baselineMs = Date.now() - started;
  if (baseline !== "passed") {
    console.error(`${module}: its tests fail without any mutant (${baseline}): fix them first`);
    return { module, total: mutants.length, killed: 0, survived: 0, timeout: 0, equivalent: 0, score: "n/a", baselineFailed: true };
  }
  const limitMs = baselineMs * TIMEOUT_FACTOR + TIMEOUT_SLACK_MS;

  current = { file, original };
  copyFileSync(file, backupPath(module));
  const results = [];
  for (const [i, mutant] of mutants.entries()) {
    writeFileSync(file, applyMutant(original, mutant));
    let outcome = await run(specs, file, limitMs);
    writeFileSync(file, original);
    if (outcome === "timeout") {
      // An endless loop holds the Worker runtime: start a new vitest.
      await vitest.close();
      vitest = await openVitest();
      specs.splice(0, specs.length, ...tests.map((t) => vitest.getProjectByName(PROJECT).createSpecification(path.join(ROOT, t))));
    }
    if (outcome === "passed") outcome = equivalent[mutant.key] ? "equivalent" : "survived";
    else if (outcome === "failed") outcome = "killed";
    results.push({ mutant, outcome });
    console.log(`  [${i + 1}/${mutants.length}] ${outcome.padEnd(10)} ${mutant.key}: ${oneLine(mutant.original)} -> ${oneLine(mutant.replacement)}`);
  }
  restore();
  // The file's tests must pass again once restored, or a mutant left something behind.
  const after = await run(specs, file, limitMs);
  if (after !== "passed") throw new Error(`${module}: its tests ${after} once restored: the run is not to be trusted`);

  const count = (o) => results.filter((r) => r.outcome === o).length;
  const killed = count("killed");
  const timeout = count("timeout");
  const survived = count("survived");
  const eq = count("equivalent");
  const denominator = results.length - eq;
  const score = denominator === 0 ? "n/a" : `${Math.floor(((killed + timeout) / denominator) * 1000) / 10} %`;
  const stale = Object.keys(equivalent).filter((k) => !all.some((m) => m.key === k));
  writeReport(module, tests, results, score, stale, equivalent);
  if (stale.length > 0) console.log(`  stale equivalent keys (no such mutant any more): ${stale.join("; ")}`);
  return { module, total: results.length, killed, survived, timeout, equivalent: eq, score };
}

/** "passed", "failed" or "timeout": the outcome of one run of `specs` over `file` as it is now. */
async function run(specs, file, limitMs) {
  // Only the mutated file is transformed again; every module of the repository is evaluated afresh
  // in the Worker runtime, since an importer keeps the exports it was given.
  vitest.invalidateFile(file);
  for (const f of sourceFiles()) vitest.watcher.invalidates.add(f);
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(() => resolve("timeout"), limitMs);
  });
  // vitest's state keeps the test files of earlier runs (an earlier module's): only this run's count.
  vitest.state.filesMap.clear();
  const ids = new Set(specs.map((s) => s.moduleId));
  const finished = vitest.runTestSpecifications(specs).then(({ testModules, unhandledErrors }) => {
    const these = testModules.filter((m) => ids.has(m.moduleId));
    const ok = these.length === specs.length && these.every((m) => m.ok()) && unhandledErrors.length === 0;
    return ok ? "passed" : "failed";
  });
  try {
    return await Promise.race([finished, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function sourceFiles() {
  if (sources) return sources;
  sources = [];
  const visit = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) {
        if (d.name !== "node_modules" && d.name !== "vendor") visit(p);
      } else if (/\.(ts|mjs|js|json)$/.test(d.name)) sources.push(p.replaceAll("\\", "/"));
    }
  };
  for (const dir of ["workers", "durable-objects", "test"]) visit(path.join(ROOT, dir));
  return sources;
}

function writeReport(module, tests, results, score, stale, equivalent) {
  const lines = [`# Mutation testing: ${module}`, "", `Tests: ${tests.join(", ")}. Score: ${score}.`, ""];
  for (const outcome of ["survived", "timeout", "equivalent", "killed"]) {
    const these = results.filter((r) => r.outcome === outcome);
    lines.push(`## ${outcome} (${these.length})`, "");
    for (const { mutant } of these) {
      lines.push(`- ${mutant.key}${outcome === "equivalent" ? `: ${equivalent[mutant.key]}` : ""}`);
      if (outcome === "survived") lines.push("", "```diff", `- ${mutant.original}`, `+ ${mutant.replacement}`, "```", "");
    }
    lines.push("");
  }
  if (stale.length > 0) lines.push("## Stale equivalent keys", "", ...stale.map((k) => `- ${k}`), "");
  writeFileSync(path.join(OUT, `${module.replaceAll("/", "__")}.md`), lines.join("\n"));
}

function backupPath(module) {
  return path.join(BACKUP, module.replaceAll("/", "__"));
}

function restore() {
  if (!current) return;
  writeFileSync(current.file, current.original);
  rmSync(backupPath(path.relative(ROOT, current.file)), { force: true });
  current = undefined;
}

/** A run killed with SIGKILL leaves its backup behind: put it back before anything else. */
function restoreLeftovers() {
  if (!existsSync(BACKUP)) return;
  for (const name of readdirSync(BACKUP)) {
    const module = name.replaceAll("__", "/");
    copyFileSync(path.join(BACKUP, name), path.join(ROOT, module));
    rmSync(path.join(BACKUP, name));
    console.log(`restored ${module} from a run that was killed`);
  }
}

function oneLine(text) {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 70 ? `${flat.slice(0, 67)}...` : flat;
}
