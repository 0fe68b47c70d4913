// Shared by the start, seed and bench scripts: the local configuration and the wrangler commands.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";

/** The configuration files of the two Workers; the first is the one served on the port. */
export const CONFIGS = ["-c", "wrangler.toml", "-c", "workers/render/wrangler.toml"];

/** Creates .dev.vars from the example once; an existing file is never overwritten. */
export function ensureDevVars() {
  if (existsSync(".dev.vars")) return;
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("created .dev.vars from .dev.vars.example");
}

/** Parses a dotenv-style file into an object. */
export function readVars(path = ".dev.vars") {
  const vars = {};
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (m) vars[m[1]] = m[2].replace(/^"(.*)"$/, "$1");
  }
  return vars;
}

/** Applies the D1 migrations to the local database under `persistTo`. */
export function migrate(persistTo) {
  const extra = persistTo ? ["--persist-to", persistTo] : [];
  execFileSync("wrangler", ["d1", "migrations", "apply", "DB", "--local", "-c", "wrangler.toml", ...extra], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, CI: "true" },
  });
}

function git(args) {
  try {
    return execFileSync("git", args, { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {
    return "unknown";
  }
}

/** Build information passed to the API Worker as vars (GET /v1/version). */
export function buildVars() {
  const compat = /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync("wrangler.toml", "utf8"))?.[1] ?? "unknown";
  return {
    BUILD_COMMIT: git(["rev-parse", "HEAD"]),
    BUILD_TIME: new Date().toISOString(),
    COMPATIBILITY_DATE: compat,
  };
}

/** Starts both Workers with wrangler dev on `port`; resolves once /v1/health answers. */
export async function startDev({ port, persistTo, vars = {}, quiet = false }) {
  const varArgs = Object.entries({ ...buildVars(), ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const extra = persistTo ? ["--persist-to", persistTo] : [];
  // --local: Workers AI and other remote bindings cannot be reached offline (PLATFORM-NOTES.md).
  const child = spawn(
    "wrangler",
    ["dev", ...CONFIGS, "--local", "--ip", "127.0.0.1", "--port", String(port), ...extra, ...varArgs],
    { stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/v1/health`);
      if (res.ok) return { child, base };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error("wrangler dev did not become healthy within 120 s");
}
