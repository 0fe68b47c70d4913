// Languages beyond English (issue 42 item 3): each language's eSpeak NG data read from R2 and unpacked
// the first time an isolate needs it (workers/render/engine/offline.ts languageData), the memory it
// then keeps, and how fast the engine narrates German, Russian, Japanese and Arabic against English.
// Load and speed are timed inside workerd (bench/engine-worker, its R2 seeded here as npm start seeds
// the platform's); workerd reports no memory use, so the memory is read in Node over the same modules
// (as scripts/render-memory.mjs does), garbage collected before each reading.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { freePort, startWorker } from "../scripts/local.mjs";
import { importWorkerModules } from "../scripts/worker-modules.mjs";

const STATE = ".wrangler/bench-languages-state";
const LANGUAGES = ["de", "ru", "ja", "ar"];
const { prefix, readingFiles } = JSON.parse(readFileSync("workers/render/engine/vendor/espeak-data.json", "utf8"));
const dataPath = (voice) => `workers/render/engine/vendor/espeak/${voice}.bin`;
/** The R2 objects the languages need, and their vendored files: each voice's data, and the Japanese readings dictionary. */
const objects = [
  ...LANGUAGES.map((voice) => [`${prefix}${voice}.bin`, dataPath(voice)]),
  ...readingFiles.map((name) => [`${prefix}${name}`, `workers/render/engine/vendor/espeak/${name}`]),
];

/** The demo article of each language (scripts/seed/articles.json), English's the first English one: a few paragraphs each. */
function texts() {
  const seed = JSON.parse(readFileSync("scripts/seed/articles.json", "utf8"));
  const of = (language) => seed.find((a) => (a.language ?? "en") === language).body_text.replace(/\s+/g, " ");
  return Object.fromEntries(["en", ...LANGUAGES].map((l) => [l, of(l)]));
}

/** MB held by the JavaScript heap and array buffers after collection. */
async function live(gc) {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

/** The MB each language's data keeps in an isolate once loaded, and the Japanese readings dictionary's. */
async function memory() {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc");
  const engine = await importWorkerModules(
    `export { languageData } from "./workers/render/engine/offline"; export { kanjiReadings } from "./workers/render/engine/readings";`,
  );
  const files = new Map(objects);
  const read = async (path) => {
    const bytes = readFileSync(files.get(path));
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  };
  const mb = {};
  for (const voice of LANGUAGES) {
    const before = await live(gc);
    await engine.languageData(voice, read);
    mb[voice] = (await live(gc)) - before;
  }
  const before = await live(gc);
  await engine.kanjiReadings("日本", read);
  mb.readings = (await live(gc)) - before;
  return mb;
}

export async function run() {
  rmSync(STATE, { recursive: true, force: true });
  for (const [key, file] of objects) {
    execFileSync(
      "wrangler",
      ["r2", "object", "put", `bench-engine/${key}`, "--file", file, "--local", "--persist-to", STATE, "-c", "bench/engine-worker/wrangler.toml"],
      { stdio: "ignore", env: { ...process.env, CI: "true" } },
    );
  }
  const engine = await startWorker({
    port: await freePort(),
    quiet: true,
    persistTo: STATE,
    configs: ["-c", "bench/engine-worker/wrangler.toml"],
    readyPath: "/",
    readyStatus: 405,
  });
  const text = texts();
  const measure = async (voice) => (await fetch(`${engine.base}/?voice=${voice}`, { method: "POST", body: text[voice === "en-us" ? "en" : voice] })).json();
  const cold = {};
  const speed = {};
  try {
    await measure("en-us"); // warm-up: compiles the WebAssembly modules
    for (const voice of LANGUAGES) cold[voice] = await measure(voice);
    for (const voice of ["en-us", ...LANGUAGES]) {
      const runs = [await measure(voice), await measure(voice), await measure(voice)];
      const median = (f) => runs.map(f).sort((a, b) => a - b)[1];
      speed[voice] = { rtf: median((r) => r.audio_seconds / (r.synth_ms / 1000)), cps: median((r) => r.characters / (r.synth_ms / 1000)) };
    }
  } finally {
    engine.child.kill();
  }
  const mb = await memory();
  const rows = [];
  for (const voice of LANGUAGES) {
    const bench = `offline engine, ${voice}: data from R2`;
    rows.push({ benchmark: bench, metric: "cold load (R2 read + unpack)", value: cold[voice].load_ms.toFixed(0), unit: "ms" });
    rows.push({ benchmark: bench, metric: "data kept in the isolate", value: (cold[voice].data_bytes / 2 ** 20).toFixed(2), unit: "MB" });
    rows.push({ benchmark: bench, metric: "live memory after loading (Node)", value: mb[voice].toFixed(2), unit: "MB" });
  }
  const readings = "offline engine, ja: readings dictionary from R2 (kanji to kana)";
  rows.push({
    benchmark: readings,
    metric: "cold load (R2 read + gunzip + build) and the demo article's readings",
    value: cold.ja.readings_ms.toFixed(0),
    unit: "ms",
  });
  rows.push({ benchmark: readings, metric: "live memory after loading (Node)", value: mb.readings.toFixed(2), unit: "MB" });
  for (const voice of ["en-us", ...LANGUAGES]) {
    const bench = `offline engine narrating a demo article, ${voice}`;
    rows.push({ benchmark: bench, metric: "engine real-time factor", value: speed[voice].rtf.toFixed(0), unit: "x real time" });
    rows.push({ benchmark: bench, metric: "engine speed", value: speed[voice].cps.toFixed(0), unit: "chars/CPU s" });
    if (voice !== "en-us")
      rows.push({ benchmark: bench, metric: "real-time factor against English", value: (speed[voice].rtf / speed["en-us"].rtf).toFixed(2), unit: "x" });
  }
  return rows;
}
