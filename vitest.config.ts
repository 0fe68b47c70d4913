import { readFileSync } from "node:fs";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { buildWeb } from "./scripts/build-web.mjs";
import { buildRenderWorker, renderTestWorker } from "./scripts/render-test-worker.mjs";
import { testVars } from "./test/vars.ts";

/** End-to-end tests (files ending in e2e.test.ts) run where the render queue is consumed. */
const E2E = "**/*e2e.test.ts";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  const compatibilityDate = /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync("wrangler.toml", "utf8"))?.[1];
  buildRenderWorker();
  // The pages name their built assets through the manifest the build writes (workers/web/client-assets.json).
  buildWeb();
  // Two projects over the same Workers: in "e2e" the render Worker consumes the render queue. It is a
  // project of its own because a live consumer finishes jobs that other tests hold in flight, and
  // storage resets between tests cannot reach messages already queued.
  const project = (name: string, consumeQueue: boolean, include: string[], exclude: string[] = []) => ({
    plugins: [
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        // Workers AI cannot run offline; tests use the local implementations behind it.
        remoteBindings: false,
        miniflare: {
          bindings: { ...testVars, COMPATIBILITY_DATE: compatibilityDate ?? "unknown", TEST_MIGRATIONS: migrations },
          // The render Worker beside the API Worker, sharing its D1 database and R2 bucket. The
          // project name fixes the runner's name, which its Durable Object bindings target.
          // In "e2e" the render Worker also has a self-hosted speech server (the loopback one of
          // scripts/selfhosted-tts-setup.mjs), so publishes are narrated through it end to end.
          workers: [
            renderTestWorker({
              runnerName: `vitest-plugin-runner-${name}`,
              consumeQueue,
              bindings: { WATERMARK_KEY: testVars.WATERMARK_KEY, ...(consumeQueue ? { SELFHOSTED_TTS_BASE_URL: inject("selfhostedTtsUrl") } : {}) },
            }),
          ],
        },
      })),
    ],
    test: {
      name,
      include,
      exclude,
      // One Worker runtime per project for all files instead of one per file: loading the Worker's
      // module graph (MCP SDK, viem, x402, the OAuth provider) cost ~8 s a file, most of the suite's
      // time. Storage is still reset before every test (test/setup.ts); per-isolate caches are not, so
      // no test may rely on a fresh isolate.
      isolate: false,
      // Audio tests render, encode and decode real files: seconds of CPU, more on a loaded 2-core machine.
      testTimeout: 30_000,
      setupFiles: ["./test/setup.ts"],
      // ffprobe and ffmpeg's ebur128 filter for the audio tests (Node side, over loopback).
      // The OpenAPI document checked by @seriousme/openapi-schema-validator (Node side, over loopback).
      // A self-hosted speech server speaking Kokoro-FastAPI's API with real speech (Node side, over loopback).
      // A web site of pages written for the link tests (Node side, over loopback).
      // A webhook receiver (Node side, over loopback) for the outbound webhooks.
      // The eSpeak NG data of the languages beyond English, which R2 holds once seeded (Node side, over loopback).
      globalSetup: [
        "./scripts/audio-probe-setup.mjs",
        "./scripts/openapi-validator-setup.mjs",
        "./scripts/selfhosted-tts-setup.mjs",
        "./scripts/links-site-setup.mjs",
        "./scripts/webhook-receiver-setup.mjs",
        "./scripts/engine-data-setup.mjs",
      ],
    },
  });
  const all = ["workers/**/*.test.ts", "durable-objects/**/*.test.ts", "test/**/*.test.ts"];
  return {
    test: {
      // Two runners (each a workerd of its own) take the files: workerd runs a Worker on one thread, and
      // vitest's default of one fewer than the cores left one core of CI's two idle.
      maxWorkers: 2,
      // The Worker's one line per request (workers/core/http.ts logRequest) is for operators, not test output.
      onConsoleLog: (log: string) => !/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+ \d{3} req=\S+\s*$/.test(log),
      projects: [project("narration", false, all, [E2E, "**/node_modules/**"]), project("narration-e2e", true, [`workers/${E2E}`])],
    },
  };
});
