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
//    Its file system's errors (FS.ErrnoError) no longer capture and demangle a stack trace: the
//    engine's file system throws one for every directory that already exists and every file eSpeak
//    looks for and does not find, dozens per paragraph, and their stacks were a fifth of eSpeak's
//    start (bench/results.md "Issue 44: what the edit and the demo waited on"); nothing reads them.
//  - espeak-ng.wasm: as shipped; wrangler bundles it as a CompiledWasm module (Workers refuse to
//    compile WebAssembly from bytes at run time).
//  - espeak-en.bin: the English voice data in one file, a Data module:
//    [u32 LE length of the JSON index][JSON [{path, size}]][the files' bytes, in index order].
//  - espeak/<voice>.bin (same format) for every other language, and espeak-data.json, the R2 prefix
//    they are read from: not bundled (docs/narration.md "Languages"). Beside them, the Japanese
//    readings dictionary (scripts/vendor-readings.mjs), whose file prefix espeak-data.json names too.
//  - c2pa.js, c2pa.d.ts and c2pa.wasm: c2pa-rs's WebAssembly build (@contentauth/c2pa-wasm) for the
//    C2PA manifests of the MP3 and WAV (workers/render/pipeline/c2pa.ts). Its Builder reads the asset
//    from a Blob through FileReaderSync, which exists only in browser Web Workers: the glue is patched
//    to read a plain { size, slice(), bytes } object instead, and gains release(), which drops the
//    instance so that its memory (it grows with the asset signed) goes back to the isolate, and
//    memoryBytes(), which says how large that memory is; each
//    closure then remembers its own instance, so one dropped late never reaches a newer instance.
//  - espeak-hook.wasm and espeak-hook.json: how the engine hears eSpeak's own word events. The glue
//    is the command-line program, whose synthesis callback (SynthCallback in espeak-ng.c) receives
//    each buffer's events (espeakEVENT_WORD: the word's text position and its sample) and keeps
//    them to itself. The callback is called through the function table, which the glue imports,
//    so the engine swaps that slot for a host function that reads the events and takes the buffer's
//    samples itself (workers/render/engine/offline.ts): the original, which writes them to the WAVE
//    file, is never called. A table holds only WebAssembly functions, and Workers compile no WebAssembly at run
//    time, so the host function goes through espeak-hook.wasm, a 34-byte module that imports a
//    function of the callback's type (i32, i32, i32) -> i32 and exports it. Which slot holds the
//    callback is found here, once: among the table's slots of that type, the one called with the
//    events of a probe sentence; a new text2wav that moves or drops it fails the install.
//  - resample.wasm and mark.wasm: the resampler's inner loop and the watermark's embedding
//    (workers/render/engine/kernels/), compiled by AssemblyScript with SIMD and no runtime: they
//    allocate nothing, and their callers (workers/render/engine/resample.ts,
//    workers/render/pipeline/watermark-embed.ts) lay out their memory.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import asc from "assemblyscript/asc";
import { vendorReadings } from "./vendor-readings.mjs";

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
  [
    /\s*\/\/ Node\.js compatibility[^\n]*\s*if \(this\.stack\) Object\.defineProperty\(this, "stack", \{ value: \(new Error\)\.stack, writable: true \}\);\s*if \(this\.stack\) this\.stack = demangleAll\(this\.stack\);/,
    "",
  ],
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

// English, bundled: the phoneme tables every language shares, intonation, the en dictionary, the
// English voices and the variants.
const data = path.join(pkg, "espeak-ng-data");
/** The files at `files` (paths under espeak-ng-data) packed into one .bin. */
function pack(files) {
  const blobs = files.map((f) => fs.readFileSync(path.join(data, f)));
  const index = Buffer.from(JSON.stringify(files.map((f, i) => ({ path: f, size: blobs[i].length }))));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(index.length);
  return Buffer.concat([head, index, ...blobs]);
}
const files = ["phontab", "phonindex", "phondata", "intonations", "en_dict"];
for (const f of fs.readdirSync(path.join(data, "lang/gmw"))) if (f.startsWith("en")) files.push(`lang/gmw/${f}`);
for (const f of fs.readdirSync(path.join(data, "voices/!v"))) files.push(`voices/!v/${f}`);
fs.writeFileSync(path.join(out, "espeak-en.bin"), pack(files));

// Every other language of workers/kernel/espeak-languages.json: its voice file and its dictionary, one
// .bin each in vendor/espeak/, which the render Worker reads from R2 when first needed (npm start's
// seed and the deploy script put them there, under a prefix named for the data's version, since a
// dictionary is compiled against the bundled phoneme tables). A listed voice without data fails the install.
const languagesOut = path.join(out, "espeak");
fs.rmSync(languagesOut, { recursive: true, force: true });
fs.mkdirSync(languagesOut);
const voiceFiles = new Map();
for (const family of fs.readdirSync(path.join(data, "lang"))) {
  const dir = path.join(data, "lang", family);
  if (fs.statSync(dir).isDirectory()) for (const f of fs.readdirSync(dir)) voiceFiles.set(f, `lang/${family}/${f}`);
  else voiceFiles.set(family, `lang/${family}`);
}
const languages = JSON.parse(fs.readFileSync("workers/kernel/espeak-languages.json", "utf8"));
for (const { voice } of languages) {
  const file = voiceFiles.get(voice);
  if (!file) throw new Error(`text2wav changed: no eSpeak voice ${voice} (workers/kernel/espeak-languages.json)`);
  // The dictionaries a voice may load: its "dictionary" line, its translator's and its language's
  // (Malay's translator is Indonesian's, its dictionary its own); those that exist, at least one.
  const text = fs.readFileSync(path.join(data, file), "latin1");
  const named = [/^dictionary\s+(\S+)/m, /^translator\s+(\S+)/m, /^language\s+([a-z]+)/m].map((p) => p.exec(text)?.[1]);
  const dictionaries = [...new Set(named)].filter((d) => d && fs.existsSync(path.join(data, `${d}_dict`))).map((d) => `${d}_dict`);
  if (dictionaries.length === 0) throw new Error(`text2wav changed: no dictionary for eSpeak voice ${voice}`);
  fs.writeFileSync(path.join(languagesOut, `${voice}.bin`), pack([file, ...dictionaries]));
}
const text2wavVersion = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).version;
const readings = vendorReadings(languagesOut);
fs.writeFileSync(
  path.join(out, "espeak-data.json"),
  `${JSON.stringify({ prefix: `engine/espeak-ng/${text2wavVersion}/`, readings: readings.prefix, readingFiles: readings.files })}\n`,
);

const require = createRequire(import.meta.url);
const c2pa = path.join(path.dirname(require.resolve("@contentauth/c2pa-wasm/package.json")), "pkg");
let c2paGlue = fs.readFileSync(path.join(c2pa, "c2pa.js"), "utf8");
const c2paPatches = [
  [/const ret = new FileReaderSync\(\);/, "const ret = new BytesReader();"],
  // A closure's destructor runs in the instance that made it, even after release() (a promise
  // callback wasm-bindgen drops later, or the finalizer of one never called).
  [/const state = \{ a: arg0, b: arg1, cnt: 1 \};/, "const state = { a: arg0, b: arg1, cnt: 1, w: wasm };"],
  [
    /new FinalizationRegistry\(state => wasm\.__wbindgen_destroy_closure\(state\.a, state\.b\)\)/,
    "new FinalizationRegistry(state => state.w.__wbindgen_destroy_closure(state.a, state.b))",
  ],
  [/ {12}wasm\.__wbindgen_destroy_closure\(state\.a, state\.b\);/, "            state.w.__wbindgen_destroy_closure(state.a, state.b);"],
  [
    /let wasmModule, wasmInstance, wasm;/,
    "let wasmModule, wasmInstance, wasm;\nexport function release() {\n    wasm = wasmInstance = wasmModule = undefined;\n    cachedDataViewMemory0 = cachedUint32ArrayMemory0 = cachedUint8ArrayMemory0 = null;\n}\nexport function memoryBytes() {\n    return wasm === undefined ? 0 : wasm.memory.buffer.byteLength;\n}",
  ],
];
for (const [pattern, replacement] of c2paPatches) {
  if (!pattern.test(c2paGlue)) throw new Error(`@contentauth/c2pa-wasm changed: the patch ${pattern} no longer applies`);
  c2paGlue = c2paGlue.replace(pattern, replacement);
}
c2paGlue += `
/** FileReaderSync for an asset held in memory: slices of { size, slice(), bytes }. */
class BytesReader {
    readAsArrayBuffer(blob) {
        const b = blob.bytes;
        return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    }
}
`;
fs.writeFileSync(path.join(out, "c2pa.js"), c2paGlue);
fs.writeFileSync(
  path.join(out, "c2pa.d.ts"),
  `${fs.readFileSync(path.join(c2pa, "c2pa.d.ts"), "utf8")}\n/** Drops the instance (vendored patch). */\nexport function release(): void;\n/** The instance's memory in bytes, 0 with none (vendored patch). */\nexport function memoryBytes(): number;\n`,
);
fs.copyFileSync(path.join(c2pa, "c2pa_bg.wasm"), path.join(out, "c2pa.wasm"));

const HOOK = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
  ...[0x01, 0x08, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f], // type 0: (i32, i32, i32) -> i32
  ...[0x02, 0x07, 0x01, 0x01, 0x65, 0x01, 0x66, 0x00, 0x00], // import "e" "f": function of type 0
  ...[0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00], // export "f": function 0 (the import itself)
]);
fs.writeFileSync(path.join(out, "espeak-hook.wasm"), HOOK);
const slot = await synthCallbackSlot();
fs.writeFileSync(path.join(out, "espeak-hook.json"), `${JSON.stringify({ synthCallbackSlot: slot })}\n`);
console.log(`vendored eSpeak NG: ${files.length} data files; word events from table slot ${slot}`);

for (const name of ["resample", "mark"]) {
  const compiled = await asc.main([
    `workers/render/engine/kernels/${name}.ts`,
    ...["-O3", "--enable", "simd", "--runtime", "stub", "--noAssert", "--initialMemory", "1", "--outFile", path.join(out, `${name}.wasm`)],
  ]);
  if (compiled.error) throw new Error(`AssemblyScript: ${compiled.stderr}`);
}

/** The table slots whose function has the type (i32, i32, i32) -> i32, read from the module's sections. */
function callbackTypedSlots(bytes) {
  let p = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[p++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return value >>> 0;
  };
  const types = [];
  const functionTypes = [];
  let imported = 0;
  const slots = [];
  while (p < bytes.length) {
    const id = bytes[p++];
    const end = leb() + p;
    if (id === 1) {
      for (let n = leb(); n > 0; n--) {
        p++; // 0x60
        const params = bytes.subarray(p + 1, p + 1 + bytes[p]).join();
        p += 1 + bytes[p];
        const results = bytes.subarray(p + 1, p + 1 + bytes[p]).join();
        p += 1 + bytes[p];
        types.push(`${params}->${results}`);
      }
    } else if (id === 2) {
      for (let n = leb(); n > 0; n--) {
        for (let name = 0; name < 2; name++) {
          const length = leb();
          p += length;
        }
        const kind = bytes[p++];
        if (kind === 0) {
          leb();
          imported++;
        } else if (kind === 1) {
          p++;
          if (leb() & 1) leb();
          leb();
        } else if (kind === 2) {
          if (leb() & 1) leb();
          leb();
        } else p += 2;
      }
    } else if (id === 3) {
      for (let n = leb(); n > 0; n--) functionTypes.push(leb());
    } else if (id === 9) {
      for (let n = leb(); n > 0; n--) {
        if (leb() !== 0) throw new Error("text2wav changed: unexpected element segment");
        if (bytes[p] !== 0x23 || bytes[p + 2] !== 0x0b) throw new Error("text2wav changed: the table is not placed at __table_base");
        p += 3;
        for (let k = leb(), at = 0; at < k; at++) slots.push(leb());
      }
    }
    p = end;
  }
  const wanted = "127,127,127->127";
  return slots.flatMap((f, slot) => (f >= imported && types[functionTypes[f - imported]] === wanted ? [slot] : []));
}

/** Runs the engine on a probe sentence with every candidate slot watched; the one given WORD events is the callback. */
async function synthCallbackSlot() {
  const run = require(path.join(out, "espeak-ng.cjs"));
  const engine = await WebAssembly.compile(fs.readFileSync(path.join(out, "espeak-ng.wasm")));
  const hook = await WebAssembly.compile(HOOK);
  const candidates = callbackTypedSlots(fs.readFileSync(path.join(out, "espeak-ng.wasm")));
  const wordsAt = new Map();
  await new Promise((resolve, reject) => {
    const module = {
      arguments: ["-v", "en-us", "-w", "/out.wav", "-f", "/in.txt"],
      print: () => {},
      printErr: () => {},
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(engine, imports).then((instance) => {
          const { table, memory } = imports.env;
          for (const slot of candidates) {
            const original = table.get(slot);
            const watch = (a, b, events) => {
              const heap = new Int32Array(memory.buffer);
              // espeak_EVENT is 9 words on wasm32; type 1 is espeakEVENT_WORD, 0 ends the list.
              for (let e = events >> 2; events > 0 && e + 9 <= heap.length && heap[e] !== 0 && heap[e] < 16; e += 9) {
                if (heap[e] === 1) wordsAt.set(slot, [...(wordsAt.get(slot) ?? []), heap[e + 2]]);
              }
              return original(a, b, events);
            };
            table.set(slot, new WebAssembly.Instance(hook, { e: { f: watch } }).exports.f);
          }
          receive(instance, engine);
        }, reject);
        return {};
      },
      preRun: [
        () => {
          const dir = path.join(pkg, "espeak-ng-data");
          for (const f of files) {
            const full = `/usr/share/espeak-ng-data/${f}`;
            module.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
            module.FS.writeFile(full, fs.readFileSync(path.join(dir, f)));
          }
          module.FS.writeFile("/in.txt", new TextEncoder().encode("Hello world, again."));
        },
      ],
      postRun: [resolve],
      onAbort: reject,
    };
    run(module);
  });
  // The probe's words start at characters 1, 7 and 14 (eSpeak counts from 1).
  const found = [...wordsAt].filter(([, positions]) => positions.join() === "1,7,14").map(([slot]) => slot);
  if (found.length !== 1) throw new Error(`text2wav changed: no single table slot carries eSpeak's word events (${JSON.stringify([...wordsAt])})`);
  return found[0];
}
