// The render Worker as an auxiliary Worker of the vitest projects: it serves the RENDER service
// binding and, in the end-to-end project, consumes the render queue, so tests run publish -> queue ->
// consumer -> R2 -> audio for real. vitest's auxiliary Workers take built JavaScript, so the render
// Worker is bundled first with the same bundler a deploy uses (`wrangler deploy --dry-run`), and its
// bindings are read from its wrangler.toml rather than repeated here.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unstable_readConfig } from "wrangler";

const CONFIG = "workers/render/wrangler.toml";
// One folder per test process, so concurrent vitest runs never read each other's half-written
// bundle; absolute, because wrangler resolves --outdir against the configuration file's folder.
const OUT = mkdtempSync(path.join(tmpdir(), "narration-render-"));
process.on("exit", () => rmSync(OUT, { recursive: true, force: true }));

/** Bundles the render Worker into a temporary folder. */
export function buildRenderWorker() {
  try {
    execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", OUT, "-c", CONFIG], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
  } catch (err) {
    // Only a failed build is worth printing (a good one warns about the Emscripten glue's dead code).
    process.stderr.write(err.stdout ?? "");
    process.stderr.write(err.stderr ?? "");
    throw new Error("building the render Worker for the tests failed");
  }
}

/**
 * Miniflare options of the built render Worker beside the Worker under test, which runs under
 * `runnerName` and owns all storage (the render Worker reaches it through STORE). With `consumeQueue`, it also consumes the render queue and its dead-letter
 * queue; without, messages stay queued (tests that hold jobs in flight are not raced by a consumer).
 * `bindings` are its vars.
 */
export function renderTestWorker({ runnerName, consumeQueue, bindings = {} }) {
  const config = unstable_readConfig({ config: CONFIG });
  return {
    name: config.name,
    // Vars of the render Worker for a project (a provider's endpoint); without, it has none.
    bindings,
    modulesRoot: OUT,
    modules: bundleModules(),
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    // Its services (STORE) are entrypoints of the Worker under test, which runs as `runnerName`; the
    // tests have no second render process (RENDER_PEER), so the consumer renders every job itself.
    serviceBindings: Object.fromEntries(
      config.services.filter((s) => s.binding !== "RENDER_PEER").map((s) => [s.binding, { name: runnerName, entrypoint: s.entrypoint }]),
    ),
    queueConsumers: consumeQueue
      ? Object.fromEntries(
          config.queues.consumers.map((c) => [
            c.queue,
            {
              maxBatchSize: c.max_batch_size,
              maxBatchTimeout: c.max_batch_timeout,
              maxRetries: c.max_retries,
              retryDelay: c.retry_delay,
              deadLetterQueue: c.dead_letter_queue,
            },
          ]),
        )
      : undefined,
  };
}

// wrangler's default module rules, which the bundle's side modules were written for.
const MODULE_TYPES = { ".js": "ESModule", ".wasm": "CompiledWasm", ".bin": "Data" };

/** The bundle's modules, entry first: index.js and the side modules wrangler wrote next to it. */
function bundleModules() {
  const files = readdirSync(OUT).filter((f) => f !== "index.js" && MODULE_TYPES[path.extname(f)]);
  return ["index.js", ...files].map((f) => ({ type: MODULE_TYPES[path.extname(f)], path: path.join(OUT, f) }));
}
