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
const VIEWS = path.join(ROOT, "workers/agents/apps/view");
const VIEWS_MANIFEST = path.join(ROOT, "workers/agents/apps/views.json");

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

/** The entries of `folder`: each <name>.ts or <name>.css directly in it (libraries live in subfolders). */
function entriesOf(folder) {
  return readdirSync(folder)
    .filter((f) => /^[a-z0-9-]+\.(ts|css)$/.test(f))
    .map((f) => path.join(folder, f));
}

/** Bundles and minifies `entryPoints` in memory, each output named by `entryNames`. */
function bundle(entryPoints, entryNames) {
  return buildSync({
    entryPoints,
    // Nothing is written (write: false), so the output paths are the served paths.
    outdir: "/assets",
    entryNames,
    bundle: true,
    minify: true,
    format: "esm",
    // Browsers of the last few years; the player is a few small modules, no polyfills.
    target: ["es2022", "chrome109", "firefox115", "safari16"],
    metafile: true,
    logLevel: "warning",
    write: false,
  });
}

/** Writes `text` to `file` only when it changes: a running `wrangler dev` watches it, and reloading it mid-request (e.g. when a test run builds) fails that request. */
function writeChanged(file, text) {
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
}

/**
 * The MCP App views' code by file name. Each is inlined in a <script> or <style> element, so none may
 * hold the text that would close it (esbuild escapes it in strings; this catches anything else).
 */
function buildViews() {
  const views = {};
  for (const output of bundle(entriesOf(VIEWS), "[name]").outputFiles) {
    const name = path.basename(output.path);
    if (/<\/(script|style)/i.test(output.text)) throw new Error(`${name} holds a closing </script> or </style>: it cannot be inlined`);
    views[name] = output.text;
  }
  writeChanged(VIEWS_MANIFEST, `${JSON.stringify(views, null, 2)}\n`);
  return views;
}

/** Bundles every client entry and reads the static files; returns the module's content. Builds the MCP App views too. */
export function buildWeb() {
  const result = bundle(entriesOf(CLIENT), "[name]-[hash]");
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
  writeChanged(MANIFEST, `${JSON.stringify(built, null, 2)}\n`);
  buildViews();
  return built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { paths, files } = buildWeb();
  console.log(`built the web's static files: ${Object.keys(paths).join(", ")}; ${Object.keys(files).length} files served`);
}
