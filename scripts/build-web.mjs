// Builds the web front-end's static files into one module the API Worker bundles and serves itself
// (workers/web/static-files.ts says why it is not wrangler [assets]). Each workers/web/client/<name>.ts
// or <name>.css is one entry, bundled and minified by esbuild and served at
// /assets/<name>-<hash>.<ext>: the hash changes with the bytes, so those are served `immutable`.
// workers/web/static/ holds the files served as they are, at their own names (an .html without
// its extension). Output: workers/web/client-assets.json, generated (gitignored), with `paths`, the
// served path of each client entry ({"player.js": "/assets/player-HASH.js", ...}), which the pages
// name, and `files`, each served path's type, entity tag and text. This runs at install,
// `npm start`, the tests and deploy.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLIENT = path.join(ROOT, "workers/web/client");
const STATIC = path.join(ROOT, "workers/web/static");
export const MANIFEST = path.join(ROOT, "workers/web/client-assets.json");

const TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".webmanifest": "application/manifest+json",
};

/** A served file: its Content-Type by extension, a strong entity tag of its bytes, its text. */
function served(file, text, immutable) {
  const type = TYPES[path.extname(file)];
  if (!type) throw new Error(`no Content-Type for ${file}: add its extension to scripts/build-web.mjs`);
  const etag = `"${createHash("sha256").update(text).digest("hex").slice(0, 32)}"`;
  return { type, etag, immutable, body: text };
}

/** Bundles every client entry and reads the static files; returns the module's content. */
export function buildWeb() {
  const entryPoints = readdirSync(CLIENT)
    .filter((f) => /^[a-z0-9-]+\.(ts|css)$/.test(f))
    .map((f) => path.join(CLIENT, f));
  const result = buildSync({
    entryPoints,
    // Nothing is written (write: false), so the output paths are the served paths.
    outdir: "/assets",
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
  const paths = {};
  const files = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!output.entryPoint) continue;
    const servedPath = `/assets/${path.basename(file)}`;
    paths[`${path.basename(output.entryPoint, path.extname(output.entryPoint))}${path.extname(file)}`] = servedPath;
    files[servedPath] = served(file, result.outputFiles.find((o) => o.path === servedPath).text, true);
  }
  for (const name of readdirSync(STATIC).sort()) {
    const servedPath = `/${name.endsWith(".html") ? name.slice(0, -".html".length) : name}`;
    files[servedPath] = served(name, readFileSync(path.join(STATIC, name), "utf8"), false);
  }
  const built = { paths, files };
  // Written only when it changes: a running `wrangler dev` watches it, and reloading it mid-request
  // (e.g. when a test run builds) fails that request.
  const text = `${JSON.stringify(built, null, 2)}\n`;
  if (!existsSync(MANIFEST) || readFileSync(MANIFEST, "utf8") !== text) writeFileSync(MANIFEST, text);
  return built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { paths, files } = buildWeb();
  console.log(`built the web's static files: ${Object.keys(paths).join(", ")}; ${Object.keys(files).length} files served`);
}
