// Builds workers/render/engine/vendor/ from npm packages so the engine runs in workerd.
// Runs on `npm install` (postinstall); the output is generated, not committed.
//  - lame-mp3.wasm: wasm-media-encoders' LAME build, copied because the package's "./wasm/mp3.wasm"
//    export points at a file that does not exist (0.7.0), and a .wasm name lets wrangler's default
//    rule bundle it as a compiled module.
//  - espeak-ng.cjs: the Emscripten glue, patched never to take its Node branch (workerd with
//    nodejs_compat has `process`) and without text2wav's post.js, which mounts the package
//    directory through NODEFS; the engine fills an in-memory file system instead. Its fcntl
//    emulation repeats the case labels 12, 13 and 14 (F_GETLK64 and friends equal F_GETLK on
//    wasm32); the repeats can never run, and dropping them keeps esbuild from warning on every build.
//  - espeak-ng.wasm: as shipped; wrangler bundles it as a CompiledWasm module (Workers refuse to
//    compile WebAssembly from bytes at run time).
//  - espeak-en.bin: the English voice data in one file, a Data module:
//    [u32 LE length of the JSON index][JSON [{path, size}]][the files' bytes, in index order].
import fs from "node:fs";
import path from "node:path";

const pkg = path.resolve("node_modules/text2wav");
const out = path.resolve("workers/render/engine/vendor");
fs.mkdirSync(out, { recursive: true });

let glue = fs.readFileSync(path.join(pkg, "lib/espeak-ng.js"), "utf8");
const patches = [
  [/ENVIRONMENT_IS_NODE = typeof process === 'object'[^;]*;/, "ENVIRONMENT_IS_NODE = false;"],
  [
    /const path = require\('path'\)\s*FS\.createPath\('\/', 'usr\/share', true, false\)\s*FS\.mount\(NODEFS, \{\s*root: path\.join\(__dirname, "\.\."\)\s*\}, '\/usr\/share'\)/,
    "",
  ],
  [/case 12:\s*case 12: \{/, "case 12: {"],
  [/case 13:\s*case 14:\s*case 13:\s*case 14:/, "case 13:\n        case 14:"],
];
for (const [pattern, replacement] of patches) {
  if (!pattern.test(glue)) throw new Error(`text2wav changed: the eSpeak glue patch ${pattern} no longer applies`);
  glue = glue.replace(pattern, replacement);
}
// The remaining require() calls sit in dead Node-only branches; keep esbuild from resolving them.
glue = "function __noRequire() { throw new Error('require is not available'); }\n" + glue.replace(/\brequire\(/g, "__noRequire(");
fs.writeFileSync(path.join(out, "espeak-ng.cjs"), glue);
fs.copyFileSync(path.join(pkg, "lib/espeak-ng.wasm"), path.join(out, "espeak-ng.wasm"));
fs.copyFileSync(path.resolve("node_modules/wasm-media-encoders/wasm/mp3.wasm"), path.join(out, "lame-mp3.wasm"));

// English only: phoneme tables, intonation, the en dictionary, the English voices and the variants.
const data = path.join(pkg, "espeak-ng-data");
const files = ["phontab", "phonindex", "phondata", "intonations", "en_dict"];
for (const f of fs.readdirSync(path.join(data, "lang/gmw"))) if (f.startsWith("en")) files.push(`lang/gmw/${f}`);
for (const f of fs.readdirSync(path.join(data, "voices/!v"))) files.push(`voices/!v/${f}`);
const blobs = files.map((f) => fs.readFileSync(path.join(data, f)));
const index = Buffer.from(JSON.stringify(files.map((f, i) => ({ path: f, size: blobs[i].length }))));
const head = Buffer.alloc(4);
head.writeUInt32LE(index.length);
fs.writeFileSync(path.join(out, "espeak-en.bin"), Buffer.concat([head, index, ...blobs]));
console.log(`vendored eSpeak NG: ${files.length} data files`);
