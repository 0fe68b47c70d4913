// Builds the web front-end's client files into the API Worker's static assets (wrangler [assets]).
// Each workers/web/client/<name>.ts or <name>.css is one entry, bundled and minified by esbuild into
// workers/web/public/assets/<name>-<hash>.<ext>: the hash changes with the bytes, so the files are
// served `immutable` (workers/web/public/_headers). The pages find the current names in the manifest
// workers/web/client-assets.json ({"player.js": "/assets/player-HASH.js", ...}), which the Worker
// bundles. Both outputs are generated (gitignored); this runs at install, `npm start`, the tests and deploy.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLIENT = path.join(ROOT, "workers/web/client");
const OUT = path.join(ROOT, "workers/web/public/assets");
export const MANIFEST = path.join(ROOT, "workers/web/client-assets.json");

/** Bundles every client entry; returns the manifest (entry file name -> served path). */
export function buildWeb() {
  const entryPoints = readdirSync(CLIENT)
    .filter((f) => /^[a-z0-9-]+\.(ts|css)$/.test(f))
    .map((f) => path.join(CLIENT, f));
  const result = buildSync({
    entryPoints,
    outdir: OUT,
    entryNames: "[name]-[hash]",
    bundle: true,
    minify: true,
    format: "esm",
    // Browsers of the last few years; the player is a few small modules, no polyfills.
    target: ["es2022", "chrome109", "firefox115", "safari16"],
    metafile: true,
    logLevel: "warning",
    write: false,
  });
  // Only new files are written, and the manifest only when it changes: a running `wrangler dev`
  // watches both, and reloading it mid-request (e.g. when a test run builds) fails that request.
  mkdirSync(OUT, { recursive: true });
  for (const file of result.outputFiles) if (!existsSync(file.path)) writeFileSync(file.path, file.contents);
  const manifest = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!output.entryPoint) continue;
    const ext = path.extname(file);
    manifest[`${path.basename(output.entryPoint, path.extname(output.entryPoint))}${ext}`] = `/assets/${path.basename(file)}`;
  }
  // Stale builds go after the new ones are written, so a server reading the folder meanwhile never
  // misses a file its manifest names.
  const current = new Set(Object.keys(result.metafile.outputs).map((f) => path.basename(f)));
  for (const f of readdirSync(OUT)) if (!current.has(f)) rmSync(path.join(OUT, f), { force: true });
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  if (!existsSync(MANIFEST) || readFileSync(MANIFEST, "utf8") !== text) writeFileSync(MANIFEST, text);
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const manifest = buildWeb();
  console.log(`built the web assets: ${Object.keys(manifest).join(", ")}`);
}
