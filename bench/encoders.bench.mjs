// The WebAssembly encoders the render Worker uses against native ones on this machine (issue 44 item 5):
// LAME (wasm-media-encoders) against ffmpeg's libmp3lame, libopus (@evan/opus's SIMD build) against
// ffmpeg's libopus, on the same 24 kHz mono speech at the render's settings. The WebAssembly runs in
// Node's V8 (workerd's engine), one thread; ffmpeg runs with one thread and its CPU time is read by
// /usr/bin/time, process start and input reading included (the last row: ffmpeg reading alone).
// The Worker's Opus also decodes each frame to guard its true peak (workers/render/engine/opus-frames.ts);
// these rows time the encoders alone. The best of three runs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Encoder } from "@evan/opus/lib.mjs";
import text2wav from "text2wav";
import { createEncoder } from "wasm-media-encoders";

const RATE = 24_000;

/** CPU seconds of `work` in this process. */
async function cpu(work) {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

const best = async (measure) => Math.min(await measure(), await measure(), await measure());

export async function run() {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-encoders-"));
  try {
    const text = readFileSync("docs/narration.md", "utf8")
      .replace(/[^A-Za-z0-9 .,]/g, " ")
      .replace(/\s+/g, " ")
      .slice(0, 6000);
    writeFileSync(path.join(dir, "speech.wav"), Buffer.from(await text2wav(text, { voice: "en" })));
    const raw = path.join(dir, "speech.raw");
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", path.join(dir, "speech.wav"), "-ac", "1", "-ar", String(RATE), "-f", "s16le", raw]);
    const pcm = new Int16Array(readFileSync(raw).buffer.slice(0));
    const seconds = pcm.length / RATE;

    const lameModule = await WebAssembly.compile(readFileSync("workers/render/engine/vendor/lame-mp3.wasm"));
    const wasmMp3 = await best(() =>
      cpu(async () => {
        const encoder = await createEncoder("audio/mpeg", lameModule);
        encoder.configure({ channels: 1, sampleRate: RATE, bitrate: 64 });
        const floats = Float32Array.from(pcm, (s) => s / 32768);
        for (let i = 0; i < floats.length; i += 65536) encoder.encode([floats.subarray(i, i + 65536)]);
        encoder.finalize();
      }),
    );
    const wasmOpus = await best(() =>
      cpu(async () => {
        const encoder = new Encoder({ channels: 1, sample_rate: RATE, application: "audio" });
        encoder.bitrate = 32_000;
        encoder.complexity = 5;
        encoder.signal = "music";
        const frame = RATE / 50;
        for (let i = 0; i + frame <= pcm.length; i += frame) encoder.encode(new Uint8Array(pcm.buffer, i * 2, frame * 2).slice());
      }),
    );
    const ffmpeg = (args) =>
      best(async () => {
        const script = `/usr/bin/time -f '%U %S' ffmpeg -v error -y -threads 1 -f s16le -ar ${RATE} -ac 1 -i ${raw} ${args} 2>&1 >/dev/null | tail -1`;
        const [user, system] = execFileSync("bash", ["-c", script]).toString().trim().split(" ").map(Number);
        return user + system;
      });
    const nativeMp3 = await ffmpeg("-c:a libmp3lame -b:a 64k -f mp3 /dev/null");
    const nativeOpus = await ffmpeg("-c:a libopus -b:a 32k -compression_level 5 -f ogg /dev/null");
    const reading = await ffmpeg("-f null /dev/null");

    const bench = `encoders on ${seconds.toFixed(0)} s of eSpeak speech, 24 kHz mono (load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`;
    const speed = (s) => (seconds / s).toFixed(0);
    return [
      { benchmark: bench, metric: "MP3 64 kbit/s: WebAssembly LAME (wasm-media-encoders)", value: speed(wasmMp3), unit: "x real time" },
      { benchmark: bench, metric: "MP3 64 kbit/s: native libmp3lame (ffmpeg)", value: speed(nativeMp3), unit: "x real time" },
      { benchmark: bench, metric: "Opus 32 kbit/s: WebAssembly libopus SIMD (@evan/opus)", value: speed(wasmOpus), unit: "x real time" },
      { benchmark: bench, metric: "Opus 32 kbit/s: native libopus (ffmpeg)", value: speed(nativeOpus), unit: "x real time" },
      { benchmark: bench, metric: "ffmpeg reading the input alone", value: speed(reading), unit: "x real time" },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
