// The files whose code runs for one request, for a publish and a paid MCP call (docs/architecture.md "Files a
// request walks"): `node scripts/walk.mjs` counts them in this tree and in the tree of an older commit
// (`--base <commit>`, 9f933c3 unless given; `--base none` for this tree alone). Each count is one vitest run of
// test/request-walk.walk.ts under scripts/walk-config.mjs (istanbul in the Workers pool), a few minutes each; the older
// tree is a detached git worktree in the system's temporary folder, given this tree's node_modules, vendored
// engine and .dev.vars, and removed afterwards. Prints the counts, and with --files every file.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { base: { type: "string", default: "9f933c3" }, files: { type: "boolean", default: false } } });

/** The walks measured in `tree`: { publish: [files], mcp: [files] }. */
function measure(tree) {
  const run = spawnSync("npx", ["vitest", "run", "--config", "scripts/walk-config.mjs"], {
    cwd: tree,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    env: { ...process.env, NO_COLOR: "1" },
  });
  const line = /^.*REQUEST-WALK (.*)$/m.exec(`${run.stdout}`);
  if (run.status !== 0 || !line) throw new Error(`the walk did not run in ${tree} (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line[1]);
}

/** A detached worktree of `commit` that can run the walk: this tree's measuring files and what git does not hold. */
function treeOf(commit) {
  const tree = path.join(mkdtempSync(path.join(tmpdir(), "walk-")), commit);
  const git = (...args) => spawnSync("git", args, { cwd: ROOT, stdio: "inherit" });
  if (git("worktree", "add", "--detach", tree, commit).status !== 0) throw new Error(`no worktree of ${commit}`);
  symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"));
  symlinkSync(path.join(ROOT, "workers/render/engine/vendor"), path.join(tree, "workers/render/engine/vendor"));
  for (const file of [".dev.vars", "workers/render/.dev.vars", "test/request-walk.walk.ts", "scripts/walk-config.mjs"]) {
    if (existsSync(path.join(ROOT, file))) copyFileSync(path.join(ROOT, file), path.join(tree, file));
  }
  return { tree, remove: () => git("worktree", "remove", "--force", tree) };
}

const results = {};
if (values.base !== "none") {
  const { tree, remove } = treeOf(values.base);
  try {
    results[values.base] = measure(tree);
  } finally {
    remove();
    rmSync(path.dirname(tree), { recursive: true, force: true });
  }
}
results.now = measure(ROOT);

for (const [at, walks] of Object.entries(results)) {
  console.log(`${at}: a publish walks ${walks.publish.length} files, a paid MCP call ${walks.mcp.length}`);
  if (values.files) for (const [name, files] of Object.entries(walks)) console.log(`  ${name}:\n${files.map((f) => `    ${f}`).join("\n")}`);
}
