// Shared by the start, seed and bench scripts: the local configuration and the wrangler commands.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { EventEmitter } from "node:events";
import { createServer } from "node:net";
import { constants, setPriority, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { redactCredentials } from "../workers/core/redact.ts";
import { buildWeb } from "./build-web.mjs";

/** The configuration files of the two Workers: the API Worker, then the render Worker. */
export const CONFIGS = ["-c", "wrangler.toml", "-c", "workers/render/wrangler.toml"];

/** Where the API process keeps the platform's state: wrangler's own default beside wrangler.toml. */
export const DEFAULT_STATE = ".wrangler/state";

/**
 * The render process's own folder beside `persistTo` (one per platform, so two platforms on one
 * machine share nothing): it holds none of the platform's state.
 */
const renderFolder = (persistTo) => `${persistTo.replace(/\/+$/, "")}-render-process`;

/** The render Worker's own .dev.vars: wrangler reads one beside each configuration file. */
const RENDER_DEV_VARS = "workers/render/.dev.vars";

/**
 * Creates .dev.vars from the example once (an existing file is never overwritten), and links the
 * render Worker's .dev.vars to it, so the provider keys set there reach the Worker that uses them.
 */
export function ensureDevVars() {
  if (!existsSync(".dev.vars")) {
    copyFileSync(".dev.vars.example", ".dev.vars");
    console.log("created .dev.vars from .dev.vars.example");
  }
  if (!existsSync(RENDER_DEV_VARS)) symlinkSync("../../.dev.vars", RENDER_DEV_VARS);
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

/** Runs `wrangler d1 <command> DB` on the local database under `persistTo` (CI=true: no prompts). */
function d1Local(command, persistTo, stdio, extraArgs = []) {
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  execFileSync("wrangler", ["d1", ...command, "DB", "--local", "-c", "wrangler.toml", ...persist, ...extraArgs], {
    stdio,
    env: { ...process.env, CI: "true" },
    maxBuffer: 1 << 28,
  });
}

/** ANSI colour and cursor sequences: the log file is read as text. */
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * A log file that receives whole lines: colours stripped and credentials redacted, since wrangler's
 * own request lines print full paths and a token in a path is a credential (workers/core/redact.ts).
 */
export function openLog(path) {
  mkdirSync(dirname(path), { recursive: true });
  const file = createWriteStream(path);
  const line = (text) => file.write(`${redactCredentials(text.replace(ANSI, ""))}\n`);
  return {
    path,
    line,
    /** Copies a child's output stream into the log, line by line. */
    follow: (stream) => createInterface({ input: stream, crlfDelay: Infinity }).on("line", line),
  };
}

/**
 * Applies the D1 migrations to the local database under `persistTo`; with `log`, wrangler's output
 * goes there (a failure throws with the log's path) instead of to the terminal.
 */
export function migrate(persistTo, log) {
  if (!log) return d1Local(["migrations", "apply"], persistTo, ["ignore", "inherit", "inherit"]);
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  const run = spawnSync("wrangler", ["d1", "migrations", "apply", "DB", "--local", "-c", "wrangler.toml", ...persist], {
    env: { ...process.env, CI: "true" },
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  for (const text of `${run.stdout ?? ""}${run.stderr ?? ""}`.split("\n")) log.line(text);
  if (run.status !== 0) throw new Error(`database migrations failed (exit ${run.status}); see ${log.path}`);
}

/** Executes `sql` (many statements) on the local database under `persistTo` (benchmark seeding). */
export function executeSql(persistTo, sql) {
  const dir = mkdtempSync(join(tmpdir(), "bench-sql-"));
  const file = join(dir, "seed.sql");
  writeFileSync(file, sql);
  try {
    d1Local(["execute"], persistTo, ["ignore", "ignore", "inherit"], ["--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function git(args) {
  try {
    return execFileSync("git", args, { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
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

/** `count` distinct free TCP ports on the loopback interface: each is held until all are found. */
async function freePorts(count) {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve) => {
          const server = createServer().listen(0, "127.0.0.1", () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** A free TCP port on the loopback interface. */
export async function freePort() {
  const [port] = await freePorts(1);
  return port;
}

/**
 * Starts the Worker of `configs` with wrangler dev on `port`; resolves once a GET of `readyPath`
 * gets the `readyStatus` the Worker itself answers (wrangler's proxy answers 5xx first). With `log`
 * (openLog), all of wrangler's output goes there; `quiet` drops its standard output. `registry` is
 * the dev registry directory through which Workers in other wrangler dev processes find each other;
 * `inspectorPort`, where wrangler serves the Worker's DevTools protocol (bench/profile.mjs);
 * `priority`, the scheduling priority of wrangler and, inherited, of the workerd it starts.
 */
export async function startWorker({
  port,
  persistTo,
  vars = {},
  quiet = false,
  log,
  configs,
  readyPath = "/v1/health",
  readyStatus = 200,
  registry,
  inspectorPort,
  priority,
}) {
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const extra = [...(persistTo ? ["--persist-to", persistTo] : []), ...(inspectorPort ? ["--inspector-port", String(inspectorPort)] : [])];
  // --local: Workers AI and other remote bindings cannot be reached offline.
  const child = spawn("wrangler", ["dev", ...configs, "--local", "--ip", "127.0.0.1", "--port", String(port), ...extra, ...varArgs], {
    stdio: log ? ["ignore", "pipe", "pipe"] : quiet ? ["ignore", "ignore", "inherit"] : "inherit",
    // Offline by design: no metrics, and no fetch of the Request.cf placeholder from Cloudflare
    // (miniflare falls back to a default one, with a stack trace, when the fetch fails).
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      ...(registry ? { WRANGLER_REGISTRY_PATH: registry } : {}),
    },
  });
  // Set before wrangler starts workerd (it bundles first), so workerd inherits it.
  if (priority !== undefined) setPriority(child.pid, priority);
  if (log) {
    log.follow(child.stdout);
    log.follow(child.stderr);
  }
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}${log ? `; see ${log.path}` : ""}`);
    try {
      const res = await fetch(`${base}${readyPath}`);
      if (res.status === readyStatus) return { child, base };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error(`wrangler dev did not become ready within 120 s${log ? `; see ${log.path}` : ""}`);
}

/**
 * The wrangler dev processes as one: killing it kills them all, and it exits when any does. Their
 * private dev registry goes with them, on kill (callers often exit right after) or on exit.
 */
class Platform extends EventEmitter {
  constructor(children, registry) {
    super();
    this.children = children;
    this.registry = registry;
    for (const child of children) child.once("exit", (code, signal) => this.emit("exit", code, signal));
    this.once("exit", () => this.removeRegistry());
  }

  removeRegistry() {
    rmSync(this.registry, { recursive: true, force: true });
  }

  get exitCode() {
    return this.children.find((c) => c.exitCode !== null)?.exitCode ?? null;
  }

  kill(signal) {
    for (const child of this.children) child.kill(signal);
    this.removeRegistry();
  }
}

/**
 * Starts the platform on `port`: the render Worker and the API Worker in wrangler dev processes of
 * their own, so that synthesis, which holds its thread for seconds, never stalls an API request
 * (on Cloudflare each Worker has its own isolates anyway). The render Worker runs in two processes,
 * the Queue's consumer and its peer (workers/render/wrangler.toml's `peer` environment), which the
 * consumer hands every other job to: workerd runs a Worker on one thread, so one process would
 * narrate on one core however many the machine has. The render processes run below normal
 * priority: on a machine with few cores the API's requests are interactive and synthesis is not.
 * Only the API process holds state (D1, R2, the Durable Objects, the queue's broker), under
 * `persistTo`; the render Worker has no storage binding and reaches all of it through the API
 * Worker's RenderStore entrypoint, so no two processes ever open one SQLite file (they would fail
 * with SQLITE_BUSY under concurrent writes). Their own folders beside `persistTo` hold nothing of
 * the platform's. The processes find each other through a dev registry of their own (service
 * bindings both ways, and the render Queue, whose messages the API side's broker hands to the
 * consumer in the render process); a registry shared with other wrangler sessions on the machine
 * could bind the API to someone else's render Worker. `renderPort` defaults to a free port, and the
 * peer's is always one. Resolves with `child` (every process) and the API's `base`.
 */
export async function startDev({ port, renderPort, persistTo = DEFAULT_STATE, vars = {}, quiet = false, log, inspectorPort }) {
  // The pages' scripts and styles, current with workers/web/client (wrangler serves them as assets).
  buildWeb();
  const registry = mkdtempSync(join(tmpdir(), "narration-registry-"));
  // Started side by side, each with an inspector port of its own: wrangler's default one would be
  // taken by whichever process looked for it first, and the other would fail to start.
  const [firstPort, peerPort, ...inspectorPorts] = await freePorts(4);
  const renderProcess = (configs, port, persistTo, inspectorPort) =>
    startWorker({
      port,
      persistTo,
      quiet,
      log,
      configs,
      readyPath: "/",
      readyStatus: 404,
      registry,
      inspectorPort,
      priority: constants.priority.PRIORITY_BELOW_NORMAL,
    });
  const renders = await Promise.allSettled([
    renderProcess(CONFIGS.slice(2), renderPort ?? firstPort, renderFolder(persistTo), inspectorPorts[0]),
    renderProcess([...CONFIGS.slice(2), "--env", "peer"], peerPort, `${renderFolder(persistTo)}-peer`, inspectorPorts[1]),
  ]);
  const started = renders.filter((r) => r.status === "fulfilled").map((r) => r.value.child);
  try {
    const failed = renders.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    const api = await startWorker({ port, persistTo, vars: { ...buildVars(), ...vars }, quiet, log, configs: CONFIGS.slice(0, 2), registry, inspectorPort });
    const child = new Platform([api.child, ...started], registry);
    return { child, base: api.base };
  } catch (err) {
    for (const render of started) render.kill();
    rmSync(registry, { recursive: true, force: true });
    throw err;
  }
}
