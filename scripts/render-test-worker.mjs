// The render Worker as an auxiliary Worker of the vitest project, so tests run publish -> queue ->
// consumer -> R2 -> audio for real. vitest's auxiliary Workers take built JavaScript, so the render
// Worker is bundled first with the same bundler a deploy uses (`wrangler deploy --dry-run`), and its
// bindings are read from its wrangler.toml rather than repeated here.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { unstable_readConfig } from "wrangler";

const CONFIG = "workers/render/wrangler.toml";
// Absolute: wrangler resolves --outdir against the configuration file's folder.
const OUT = path.resolve(".build/render");

/** Bundles the render Worker into .build/render and returns its Miniflare options. */
export function renderTestWorker({ runnerName, vars = {} }) {
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
  const config = unstable_readConfig({ config: CONFIG });
  return {
    name: config.name,
    modules: true,
    scriptPath: path.join(OUT, "index.js"),
    // wrangler's default module rules, which the bundle's side modules were written for.
    modulesRules: [
      { type: "CompiledWasm", include: ["**/*.wasm"] },
      { type: "Data", include: ["**/*.bin"] },
    ],
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    bindings: vars,
    // Same ids as the Worker under test, so both see one database and one bucket.
    d1Databases: Object.fromEntries(config.d1_databases.map((d) => [d.binding, d.database_id])),
    r2Buckets: Object.fromEntries(config.r2_buckets.map((r) => [r.binding, r.bucket_name])),
    // Durable Object classes of the API Worker run under the vitest runner's name.
    durableObjects: Object.fromEntries(
      config.durable_objects.bindings.map((d) => [d.name, { className: d.class_name, scriptName: runnerName }]),
    ),
    queueConsumers: Object.fromEntries(
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
    ),
  };
}
