// The eSpeak NG data of every language beyond English (scripts/vendor-engine.mjs wrote one .bin per
// voice in workers/render/engine/vendor/espeak/), put in the platform's R2 bucket, where the render
// Worker reads a language's data when it first needs it (workers/render/engine/offline.ts): by
// `npm start` into local storage and by `npm run deploy` into the bucket on Cloudflare. Bundled, the
// 12 MB would not fit the render Worker's script limit beside the encoders and C2PA.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const DIR = path.resolve("workers/render/engine/vendor/espeak");
const BUCKET = /bucket_name\s*=\s*"([^"]+)"/.exec(readFileSync("wrangler.toml", "utf8"))[1];

/**
 * Writes every language's data to the bucket in one `wrangler r2 bulk put`: `where` is `["--local"]`
 * (with `--persist-to` when the state is not wrangler's default) or `["--remote"]`.
 */
export function putEngineData(where, stdio = "inherit") {
  const { prefix } = JSON.parse(readFileSync("workers/render/engine/vendor/espeak-data.json", "utf8"));
  const dir = mkdtempSync(path.join(tmpdir(), "engine-data-"));
  const list = path.join(dir, "objects.json");
  writeFileSync(list, JSON.stringify(readdirSync(DIR).map((name) => ({ key: `${prefix}${name}`, file: path.join(DIR, name) }))));
  try {
    execFileSync("wrangler", ["r2", "bulk", "put", BUCKET, "--filename", list, ...where, "-c", "wrangler.toml"], {
      stdio,
      env: { ...process.env, CI: "true" },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm start`'s seed: the data into local R2 under wrangler's default state, once per data version
 * (a marker beside the state says which was put; a bulk put takes about 20 s).
 */
export function putLocalEngineData() {
  const version = readFileSync("workers/render/engine/vendor/espeak-data.json", "utf8");
  const marker = ".wrangler/state/engine-data.json";
  if (existsSync(marker) && readFileSync(marker, "utf8") === version) return;
  putEngineData(["--local"], "ignore");
  mkdirSync(path.dirname(marker), { recursive: true });
  writeFileSync(marker, version);
}
