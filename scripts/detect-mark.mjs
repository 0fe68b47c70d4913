// `npm run detect-mark FILE`: whether an audio file carries the narration watermark (docs/narration.md
// "The watermark"). Prints one JSON line {"marked", "confidence", "payload"} and exits 0 either way,
// 2 when the file cannot be read. The file is decoded by ffmpeg when it is installed (MP3, Ogg Opus,
// WAV, anything ffmpeg reads), else read as WAV. The key is WATERMARK_KEY from the environment, else
// from .dev.vars, else .dev.vars.example's development key. The detector is the Workers' own code
// (workers/narration/marks/detect.ts), bundled by esbuild, and searches speed changes from 0.85x to 1.15x.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { importWorkerModules } from "./worker-modules.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const MARK_RATE = 24_000;

const file = process.argv[2];
if (!file) {
  console.error("usage: npm run detect-mark FILE");
  process.exit(2);
}

/** WATERMARK_KEY of the environment, else of the first of .dev.vars and .dev.vars.example that names one. */
function watermarkKey() {
  if (process.env.WATERMARK_KEY) return process.env.WATERMARK_KEY;
  for (const name of [".dev.vars", ".dev.vars.example"]) {
    const vars = path.join(ROOT, name);
    const line = existsSync(vars) && /^WATERMARK_KEY=(.*)$/m.exec(readFileSync(vars, "utf8"));
    if (line) return line[1].trim();
  }
  throw new Error("no WATERMARK_KEY");
}

/** Mono float samples at MARK_RATE by ffmpeg; null when ffmpeg is not installed. */
function decodeWithFfmpeg() {
  try {
    const raw = execFileSync("ffmpeg", ["-v", "error", "-i", file, "-ac", "1", "-ar", String(MARK_RATE), "-f", "f32le", "-"], {
      maxBuffer: 1 << 30,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  } catch (err) {
    if (err.code === "ENOENT") return null;
    throw new Error(`ffmpeg could not decode ${file}`);
  }
}

const mark = await importWorkerModules(`export { detectMark } from "./workers/narration/marks/detect";
export { markLayout } from "./workers/kernel/watermark/scheme";
export { readWav, toMarkRate } from "./workers/narration/marks/wav";`);

let samples;
try {
  if (!existsSync(file)) throw new Error(`no such file: ${file}`);
  samples = decodeWithFfmpeg();
  if (!samples) {
    const wav = mark.readWav(new Uint8Array(readFileSync(file)));
    if (!wav) throw new Error(`${file} is not a WAV file, and ffmpeg, which reads other formats, is not installed`);
    samples = mark.toMarkRate(wav.samples, wav.rate);
  }
} catch (err) {
  console.error(err.message);
  process.exit(2);
}
console.log(JSON.stringify(mark.detectMark(samples, await mark.markLayout(watermarkKey()))));
