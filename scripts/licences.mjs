// Writes THIRD-PARTY-NOTICES.md from the dependencies' own package.json (name, version, licence,
// repository). `--check` (`npm run licences`, a step of .ci/run) writes nothing and fails when the
// committed notice is stale. Both fail, naming the package, when a licence cannot be combined with
// the project's GPL-3.0-or-later (scripts/licence-policy.mjs).
// Covered: the production tree of package-lock.json, and whatever the two Workers' bundles hold, read
// from the metafile of the bundler a deploy uses: a devDependency that Worker code imports ships too.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { violations } from "./licence-policy.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NOTICE = path.join(ROOT, "THIRD-PARTY-NOTICES.md");
// The two Workers as scripts/deploy.mjs deploys them.
const WORKERS = [
  ["-c", "wrangler.toml"],
  ["-c", "workers/render/wrangler.toml", "--env", "production"],
];
// scripts/vendor-engine.mjs builds the offline engine's folder from files of these packages.
const VENDOR_DIR = path.join(ROOT, "workers/render/engine/vendor");
const VENDORED = ["node_modules/text2wav", "node_modules/wasm-media-encoders", "node_modules/@contentauth/c2pa-wasm"];
// What ships inside a package without its package.json naming it: the licences that bind the bundle.
const EMBEDDED = {
  text2wav: {
    name: "eSpeak NG",
    what: "the synthesiser (espeak-ng.wasm) and its voice data",
    licence: "GPL-3.0-or-later",
    source: "https://github.com/espeak-ng/espeak-ng",
  },
  "wasm-media-encoders": { name: "LAME", what: "the MP3 encoder (mp3.wasm)", licence: "LGPL-2.0-or-later", source: "https://lame.sourceforge.io" },
  "@evan/opus": { name: "libopus", what: "the Opus codec (simd.wasm)", licence: "BSD-3-Clause", source: "https://opus-codec.org" },
  "@patdx/kuromoji": {
    name: "IPADIC (mecab-ipadic 2.7.0)",
    what: "the Japanese dictionary (dict/, reduced by scripts/vendor-readings.mjs and put in R2 by npm run deploy)",
    licence: "NAIST-2003",
    source: "https://github.com/taku910/mecab/tree/master/mecab-ipadic",
  },
  "@contentauth/c2pa-wasm": {
    name: "c2pa-rs",
    what: "the C2PA manifest builder and reader (c2pa.wasm)",
    licence: "MIT OR Apache-2.0",
    source: "https://github.com/contentauth/c2pa-rs",
  },
};

const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")).packages;

/**
 * The package folders (package-lock.json keys) a bundled file comes from; none for the project's own
 * code. The innermost folder npm installed: a package may ship others in its own dist/node_modules.
 */
function packagesOf(file) {
  if (file.startsWith(VENDOR_DIR + path.sep)) return VENDORED;
  const rel = path.relative(ROOT, file).split(path.sep).join("/");
  const folders = [...rel.matchAll(/node_modules\/(?:@[^/]+\/)?[^/]+/g)].map((m) => rel.slice(0, m.index + m[0].length));
  return folders.filter((f) => f in lock).slice(-1);
}

/** The package folders whose files one Worker's bundle holds. */
function bundledBy(workerArgs) {
  const out = mkdtempSync(path.join(tmpdir(), "narration-licences-"));
  try {
    const metafile = path.join(out, "meta.json");
    // Absolute, because wrangler resolves --outdir and --metafile against the configuration's folder.
    execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out, "--metafile", metafile, ...workerArgs], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    // The metafile's paths are relative to that folder too.
    const base = path.join(ROOT, path.dirname(workerArgs[1]));
    const found = new Set();
    for (const [input, { imports }] of Object.entries(JSON.parse(readFileSync(metafile, "utf8")).inputs)) {
      const file = path.resolve(base, input);
      for (const p of packagesOf(file)) found.add(p);
      // A WebAssembly or data module is attached as "<sha1>-<file name>", which keeps no trace of
      // where it came from: the import in the file that attaches it does.
      for (const { path: attached, external } of imports) {
        const name = external && /^\.\/[0-9a-f]{40}-(.+)$/.exec(attached)?.[1];
        if (!name) continue;
        const strings = readFileSync(file, "utf8").matchAll(/["']([^"'\n]+)["']/g);
        const specifier = [...strings].map((m) => m[1]).find((s) => s.endsWith(`/${name}`));
        if (!specifier) throw new Error(`${input} attaches ${name}, but no import in it names that file`);
        const target = specifier.startsWith(".") ? path.resolve(path.dirname(file), specifier) : path.join(ROOT, "node_modules", specifier);
        for (const p of packagesOf(target)) found.add(p);
      }
    }
    return found;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The https page of a package.json "repository" given in any of npm's forms. */
function repositoryUrl(repository) {
  const url = typeof repository === "string" ? repository : (repository?.url ?? "");
  return url
    .replace(/^github:|^(?=[\w.-]+\/[\w.-]+$)/, "https://github.com/")
    .replace(/^(?:git\+)?(?:ssh|git|https?):\/\/(?:git@)?/, "https://")
    .replace(/^git@([^:]+):/, "https://$1/")
    .replace(/\.git$/, "");
}

/** One installed package as its own package.json describes it. */
function installed(folder) {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, folder, "package.json"), "utf8"));
  return { name: pkg.name, version: pkg.version, licence: typeof pkg.license === "string" ? pkg.license : "", repository: repositoryUrl(pkg.repository) };
}

/** The rows of a table, one per name@version however many folders hold it, sorted by name. */
function distinct(packages) {
  const rows = new Map(packages.map((p) => [`${p.name}@${p.version}`, p]));
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name, "en") || a.version.localeCompare(b.version, "en"));
}

const table = (head, rows) => [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

const bundledFolders = new Set(WORKERS.flatMap((w) => [...bundledBy(w)]));
const production = Object.entries(lock).filter(([folder, entry]) => folder !== "" && !entry.dev);
const bundled = distinct([...bundledFolders].map(installed));
const shipped = new Set(bundled.map((p) => `${p.name}@${p.version}`));
const others = distinct(production.filter(([, entry]) => !entry.optional).map(([folder]) => installed(folder))).filter(
  (p) => !shipped.has(`${p.name}@${p.version}`),
);
// Optional packages are installed only on a matching system, so their rows come from the lock file
// (npm copies each one's name, version and licence there): the notice is the same on every machine.
const platform = distinct(
  production
    .filter(([folder, entry]) => entry.optional && !bundledFolders.has(folder))
    .map(([folder, entry]) => ({ name: entry.name ?? folder.split("node_modules/").pop(), version: entry.version, licence: entry.license ?? "" })),
);
const embedded = bundled.filter((p) => EMBEDDED[p.name]).map((p) => ({ ...EMBEDDED[p.name], in: p }));

const notice = `# Third-party notices

This project is licensed under GPL-3.0-or-later (\`LICENSE\`). It uses the packages below, each under its
own licence, whose text ships in the package and its repository. Generated by \`node scripts/licences.mjs\`
from each package's own package.json; \`npm run licences\` fails when this file is stale, or when a
licence cannot be combined with GPL-3.0-or-later (\`scripts/licence-policy.mjs\`).

## Bundled into the Workers

What \`npm run deploy\` ships: every package in the bundles of the API and render Workers, the
WebAssembly and data modules they import, and the packages \`scripts/vendor-engine.mjs\` builds the
offline engine from.

${table(
  ["Package", "Version", "Licence", "Repository"],
  bundled.map((p) => [p.name, p.version, p.licence, p.repository]),
)}

Inside them, under licences their package.json does not name:

${table(
  ["Component", "In", "Licence", "Source"],
  embedded.map((c) => [`${c.name}: ${c.what}`, `${c.in.name} ${c.in.version}`, c.licence, c.source]),
)}

## Other production dependencies

Installed by \`npm install --omit=dev\`, not part of a Worker bundle.

${table(
  ["Package", "Version", "Licence", "Repository"],
  others.map((p) => [p.name, p.version, p.licence, p.repository]),
)}

## Platform builds

Optional packages of the production tree, which npm installs only on a system they fit: builds for one
operating system and CPU, and what those need.

${table(
  ["Package", "Version", "Licence"],
  platform.map((p) => [p.name, p.version, p.licence]),
)}
`;

const ruledOut = violations([
  ...bundled,
  ...others,
  ...platform,
  ...embedded.map((c) => ({ name: `${c.name} in ${c.in.name}`, version: c.in.version, licence: c.licence })),
]);
if (ruledOut.length > 0) {
  console.error(`Licences that cannot be combined with GPL-3.0-or-later (scripts/licence-policy.mjs):\n  ${ruledOut.join("\n  ")}`);
  process.exitCode = 1;
}
if (!process.argv.includes("--check")) {
  writeFileSync(NOTICE, notice);
} else if (!existsSync(NOTICE) || readFileSync(NOTICE, "utf8") !== notice) {
  console.error("THIRD-PARTY-NOTICES.md is stale: run `node scripts/licences.mjs` and commit it.");
  process.exitCode = 1;
}
