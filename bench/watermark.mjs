// The watermark's robustness and transparency (docs/narration.md "The watermark"), for bench/results.md
// "Watermark": speech of the offline engine (the same modules the render Worker runs, bundled by
// esbuild), each paragraph marked as the pipeline marks it, laid out with paragraph pauses; then the
// marked file through each transformation by ffmpeg and read back by the detector, the unmarked speech
// and ffmpeg-generated music read for false positives, and the loudness (ffmpeg ebur128) and spectral
// distortion of the marked file against the unmarked one. Needs ffmpeg. Prints a Markdown table.
//   node bench/watermark.mjs
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { importWorkerModules } from "../scripts/worker-modules.mjs";

const RATE = 24_000;
const m = await importWorkerModules(`export { joinPieces, pieceToInt16 } from "./workers/render/engine/join";
export { normalizeLoudness } from "./workers/render/engine/loudness";
export { espeak, espeakTimed, languageData } from "./workers/render/engine/offline";
export { resample } from "./workers/render/engine/resample";
export { markLayout, PLATFORM_ID, BLOCK_FRAMES, FRAME } from "./workers/kernel/watermark/scheme";
export { markSamples } from "./workers/render/pipeline/watermark-embed";
export { detectMark, sidesOf, acrossPause, PRESENCE_FALSE_POSITIVES } from "./workers/narration/marks/detect";
export { Fft } from "./workers/kernel/watermark/fft";`);

const PARAGRAPHS = [
  [
    "en-us",
    "The city council met on Tuesday evening to discuss the new budget for public transport. Several members argued that the bus network needs more frequent service in the outer districts, while others pointed to the cost of new vehicles. After a long debate the council agreed to commission a study of passenger numbers.",
  ],
  [
    "en-us+f3",
    "Scientists have found that a small fish living in coral reefs can recognise its own reflection. The researchers placed a mark on the fish and watched as it tried to scrape the mark off against the sand. The finding raises questions about how we measure self awareness in animals.",
  ],
  [
    "en",
    "Rain is expected across the north of the country tomorrow, with strong winds along the coast. Temperatures will stay mild for the season. Drivers are advised to take care on exposed roads and to check for delays before they travel, as several ferries may be cancelled.",
  ],
  [
    "en-us+m3",
    "The library will open a new reading room in the old railway station next month. Volunteers have spent two years restoring the building, and the room will hold local newspapers going back more than a century, along with maps and photographs donated by residents.",
  ],
];
const KEY = "bench-watermark-key-0001";
const layout = await m.markLayout(KEY);
const gap = new Int16Array(Math.round(0.8 * RATE));
const plain = [];
const marked = [];
const ids = [];
for (const [i, [voice, text]] of PARAGRAPHS.entries()) {
  const master = m.joinPieces([m.pieceToInt16(await m.espeak(text, voice), RATE)]);
  m.normalizeLoudness(master.samples, RATE);
  const id = (0x5eed0000 + i).toString(16);
  ids.push(id);
  plain.push(master.samples, gap);
  marked.push(m.markSamples(master.samples, layout, { synthetic: true, platform: m.PLATFORM_ID, id }), gap);
}
const concat = (parts) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const wav = (s) => {
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + s.length * 2, 4);
  h.write("WAVEfmt ", 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(RATE, 24);
  h.writeUInt32LE(RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36);
  h.writeUInt32LE(s.length * 2, 40);
  return Buffer.concat([h, Buffer.from(s.buffer, s.byteOffset, s.byteLength)]);
};
const dir = mkdtempSync(path.join(tmpdir(), "watermark-bench-"));
const file = (name) => path.join(dir, name);
const plainPcm = concat(plain);
const markedPcm = concat(marked);
writeFileSync(file("plain.wav"), wav(plainPcm));
writeFileSync(file("marked.wav"), wav(markedPcm));
const seconds = plainPcm.length / RATE;

const ffmpeg = (...args) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args], { maxBuffer: 1 << 30 });
const decode = (f) => {
  const raw = execFileSync("ffmpeg", ["-v", "error", "-i", f, "-ac", "1", "-ar", String(RATE), "-f", "f32le", "-"], { maxBuffer: 1 << 30 });
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
};
const through = (name, ...args) => {
  ffmpeg("-i", file("marked.wav"), ...args, file(name));
  return file(name);
};
// Band-pass 200 Hz-3.5 kHz (a small speaker and a phone's microphone), then white noise 20 dB under the speech's power.
const speakerMic = () => {
  const bp = decode(through("bp.wav", "-af", "highpass=f=200,highpass=f=200,lowpass=f=3500,lowpass=f=3500"));
  let power = 0;
  let n = 0;
  for (const x of bp)
    if (Math.abs(x) > 1e-3) {
      power += x * x;
      n++;
    }
  const sigma = Math.sqrt(power / n / 100);
  let seed = 7;
  const uniform = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) + 1) / 2147483649;
  return bp.map((x) => x + sigma * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()));
};
const middle = Math.max(0, seconds / 2 - 5).toFixed(2);
const CASES = [
  ["as rendered (WAV)", () => decode(file("marked.wav"))],
  ["MP3 64 kbit/s", () => decode(through("a.mp3", "-c:a", "libmp3lame", "-b:a", "64k"))],
  ["MP3 32 kbit/s", () => decode(through("b.mp3", "-c:a", "libmp3lame", "-b:a", "32k"))],
  ["Opus 24 kbit/s", () => decode(through("c.opus", "-c:a", "libopus", "-b:a", "24k"))],
  ["resampled to 16 kHz", () => decode(through("r16.wav", "-ar", "16000"))],
  ["resampled to 48 kHz", () => decode(through("r48.wav", "-ar", "48000"))],
  ["volume +6 dB", () => decode(through("vp.wav", "-af", "volume=6dB"))],
  ["volume -6 dB", () => decode(through("vm.wav", "-af", "volume=-6dB"))],
  ["10 s excerpt from the middle", () => decode(through("ex.wav", "-ss", middle, "-t", "10"))],
  ["speed 0.9x (pitch kept, atempo)", () => decode(through("t09.wav", "-af", "atempo=0.9"))],
  ["speed 1.1x (pitch kept, atempo)", () => decode(through("t11.wav", "-af", "atempo=1.1"))],
  ["speed 0.9x (pitch follows, resampled)", () => decode(through("s09.wav", "-af", `asetrate=${RATE * 0.9},aresample=${RATE}`))],
  ["speed 1.1x (pitch follows, resampled)", () => decode(through("s11.wav", "-af", `asetrate=${RATE * 1.1},aresample=${RATE}`))],
  ["speaker and microphone (band-pass 200-3500 Hz, noise at 20 dB SNR)", speakerMic],
];

const rows = [];
for (const [name, make] of CASES) {
  const started = Date.now();
  const reading = m.detectMark(make(), layout);
  // A clip across a paragraph boundary is marked without an id when neither side holds its payload.
  const read = !reading.marked ? "**no**" : ids.includes(reading.payload?.id) ? "yes" : reading.payload ? "**wrong id**" : "yes, no id";
  rows.push(`| ${name} | ${read} | ${reading.confidence} | ${((Date.now() - started) / 1000).toFixed(1)} |`);
}

// False positives: unmarked speech (the four voices as they are, and through MP3, Opus and speed
// changes) and ffmpeg-generated music and noise, each read at its own speed over every window (2, 4
// and 8 blocks every half block, 8 alignments; the windows at pauses come on top), then the two
// originals through the speed search too.
const generated = (name, seconds, ...sources) => {
  const out = file(name);
  const inputs = sources.flatMap((src) => ["-f", "lavfi", "-i", `${src}:d=${seconds}`]);
  const mix = sources.length > 1 ? ["-filter_complex", `${sources.map((_, i) => `[${i}]`).join("")}amix=inputs=${sources.length},tremolo=f=3:d=0.4`] : [];
  ffmpeg(...inputs, ...mix, "-ac", "1", "-ar", String(RATE), out);
  return out;
};
const music = generated(
  "music.wav",
  120,
  "aevalsrc=0.2*sin(2*PI*220*t)*(1+0.5*sin(2*PI*2*t))+0.15*sin(2*PI*277.2*t)+0.1*sin(2*PI*329.6*t)+0.05*sin(2*PI*440*t*(1+0.01*sin(2*PI*5*t))):s=24000",
  "anoisesrc=color=pink:amplitude=0.05:r=24000",
  "sine=f=110:r=24000",
);
const arpeggio = generated(
  "arpeggio.wav",
  120,
  "aevalsrc=0.3*sin(2*PI*(262*pow(2\\,floor(mod(t*4\\,4))*4/12))*t)*exp(-3*mod(t\\,0.25)):s=24000",
  "anoisesrc=color=brown:amplitude=0.03:r=24000",
);
const sweep = generated("sweep.wav", 120, "aevalsrc=0.3*sin(2*PI*(200+1800*mod(t\\,10)/10)*t):s=24000", "anoisesrc=color=white:amplitude=0.02:r=24000");
const noise = generated("noise.wav", 120, "anoisesrc=color=pink:amplitude=0.2:r=24000");
const plainThrough = (name, ...args) => {
  ffmpeg("-i", file("plain.wav"), ...args, file(name));
  return decode(file(name));
};
const other = await m.markLayout("some-other-deployment");
const grid = (samples) => {
  const frames = Math.floor(samples.length / m.FRAME);
  return [2, 4, 8].reduce((n, b) => n + Math.max(1, Math.floor((frames - b * m.BLOCK_FRAMES) / (m.BLOCK_FRAMES / 2)) + 1), 0) * 8;
};
const unmarked = [
  ["unmarked speech (the offline engine's four voices)", () => decode(file("plain.wav"))],
  ["the same through MP3 32 kbit/s", () => plainThrough("p32.mp3", "-c:a", "libmp3lame", "-b:a", "32k")],
  ["the same through Opus 24 kbit/s", () => plainThrough("p24.opus", "-c:a", "libopus", "-b:a", "24k")],
  ["the same at 0.9x (resampled)", () => plainThrough("p09.wav", "-af", `asetrate=${RATE * 0.9},aresample=${RATE}`)],
  ["the same at 1.1x (resampled)", () => plainThrough("p11.wav", "-af", `asetrate=${RATE * 1.1},aresample=${RATE}`)],
  ["the same at 0.9x (atempo)", () => plainThrough("pt09.wav", "-af", "atempo=0.9")],
  ["music: a chord with vibrato, pink noise, a bass tone", () => decode(music)],
  ["music: a plucked arpeggio over brown noise", () => decode(arpeggio)],
  ["a tone sweeping 200 Hz-2 kHz over white noise", () => decode(sweep)],
  ["pink noise", () => decode(noise)],
  ["marked speech read with another key", () => decode(file("marked.wav")), other],
];
const fp = [];
let fpWindows = 0;
let fpMarked = 0;
for (const [name, load, key = layout] of unmarked) {
  const samples = load();
  const reading = m.detectMark(samples, key, { speeds: false });
  fpWindows += grid(samples);
  fpMarked += reading.marked ? 1 : 0;
  fp.push(`| ${name} | own speed | ${(samples.length / RATE).toFixed(0)} | ${grid(samples)} | ${reading.marked ? "**1**" : 0} | ${reading.confidence} |`);
}
// False positives across a pause: the detector scores each stretch between long pauses on its own
// and adds two neighbours (detect.ts acrossPauses), so any two stretches of unmarked audio, the
// first before a pause and the second after it, are a window it might read. Every recording above,
// and unmarked speech in six more of the offline engine's languages, cut by 0.6 s of silence every
// 2 to 7 s (speech keeps its own pauses too); every ordered pair of the stretches is read as a clip
// of just those two would be, with the fewest tries and so the lowest bar.
const LANGUAGES = [
  [
    "de",
    "Der Stadtrat hat am Dienstag über den neuen Haushalt beraten. Mehrere Mitglieder forderten häufigere Busse in den Außenbezirken, andere verwiesen auf die Kosten.",
  ],
  [
    "fr",
    "Le conseil municipal s'est réuni mardi soir pour discuter du nouveau budget. Plusieurs membres ont demandé des bus plus fréquents dans les quartiers extérieurs.",
  ],
  [
    "es",
    "El ayuntamiento se reunió el martes para hablar del nuevo presupuesto. Varios concejales pidieron más autobuses en los barrios de las afueras de la ciudad.",
  ],
  [
    "it",
    "Il consiglio comunale si è riunito martedì sera per discutere il nuovo bilancio. Diversi membri hanno chiesto autobus più frequenti nei quartieri periferici.",
  ],
  ["pl", "Rada miasta zebrała się we wtorek wieczorem, aby omówić nowy budżet. Kilku radnych domagało się częstszych autobusów w dzielnicach zewnętrznych."],
  ["hi", "नगर परिषद ने मंगलवार शाम नए बजट पर चर्चा की। कई सदस्यों ने बाहरी इलाकों में अधिक बसों की मांग की।"],
];
let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const withPauses = (samples) => {
  const out = Float32Array.from(samples);
  for (let at = Math.round((2 + 5 * random()) * RATE); at < out.length; at += Math.round((2.6 + 5 * random()) * RATE)) out.fill(0, at, at + 0.6 * RATE);
  return out;
};
const sides = [];
const languageSpeech = [];
// The voices' data as the render Worker reads it from R2, here from the files npm install vendored.
const vendored = async (object) => {
  const bytes = readFileSync(`workers/render/engine/vendor/espeak/${path.basename(object)}`);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
};
for (const [voice, text] of LANGUAGES) {
  const { pcm } = await m.espeakTimed(text, voice, await m.languageData(voice, vendored));
  languageSpeech.push(m.resample(pcm, RATE).samples);
}
for (const [, load, key = layout] of [...unmarked, ...languageSpeech.map((samples) => ["", () => samples])]) {
  for (const side of m.sidesOf(withPauses(load()), key)) sides.push({ side, key });
}
let pairWindows = 0;
let pairMarked = 0;
let lowestChance = 1;
for (const a of sides) {
  for (const b of sides) {
    if (a === b || a.key !== b.key) continue;
    const pair = m.acrossPause(a.side, b.side, Math.max(1, a.side.all * b.side.tried));
    if (!pair) continue;
    pairWindows++;
    pairMarked += pair.chance < m.PRESENCE_FALSE_POSITIVES ? 1 : 0;
    lowestChance = Math.min(lowestChance, pair.chance);
  }
}
for (const [name, load] of [unmarked[0], unmarked[6]]) {
  const reading = m.detectMark(load(), layout);
  fp.push(`| ${name} | speed search 0.85-1.15x | 12 | 60 speeds, 2 ways | ${reading.marked ? "**1**" : 0} | ${reading.confidence} |`);
}

// Transparency: loudness by ffmpeg's ebur128, and the log-spectral distance of the marked file from the unmarked one.
const integrated = (f) => {
  const out = execFileSync("sh", ["-c", `ffmpeg -nostats -hide_banner -i '${f}' -filter_complex ebur128 -f null - 2>&1`]).toString();
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(out.slice(out.lastIndexOf("Summary:")))[1]);
};
const lsd = () => {
  const N = 1024;
  let sum = 0;
  let count = 0;
  let signal = 0;
  let noise = 0;
  for (let i = 0; i < plainPcm.length; i++) {
    signal += plainPcm[i] ** 2;
    noise += (markedPcm[i] - plainPcm[i]) ** 2;
  }
  for (let start = 0; start + N <= plainPcm.length; start += N / 2) {
    const a = spectrum(plainPcm, start, N);
    const b = spectrum(markedPcm, start, N);
    const energy = a.reduce((x, y) => x + y, 0);
    if (energy < 1e3 * N) continue;
    let d = 0;
    // 0-8 kHz, where speech is and the mark is written.
    const top = Math.round((8000 / RATE) * N);
    for (let k = 1; k < top; k++) d += (10 * Math.log10((a[k] + 1e-3) / (b[k] + 1e-3))) ** 2;
    sum += Math.sqrt(d / (top - 1));
    count++;
  }
  return { lsd: sum / count, snr: 10 * Math.log10(signal / noise) };
};
function spectrum(x, start, N) {
  const re = Float64Array.from({ length: N }, (_, n) => x[start + n] * (0.5 - 0.5 * Math.cos((2 * Math.PI * n) / N)));
  const im = new Float64Array(N);
  fft.forward(re, im);
  return Float64Array.from({ length: N / 2 }, (_, k) => re[k] * re[k] + im[k] * im[k]);
}
const fft = new m.Fft(1024);
const loudPlain = integrated(file("plain.wav"));
const loudMarked = integrated(file("marked.wav"));
const distortion = lsd();
rmSync(dir, { recursive: true, force: true });

console.log(`Speech: ${PARAGRAPHS.length} paragraphs, ${seconds.toFixed(1)} s, each marked with its own id.\n`);
console.log("| Transformation of the marked file | Mark and id read | Confidence | Seconds |\n|---|---|---|---|");
console.log(rows.join("\n"));
console.log("\n| Unmarked audio | Read | Seconds | Windows read | Marked | Confidence |\n|---|---|---|---|---|---|");
console.log(fp.join("\n"));
console.log(`\nFalse positives: ${fpMarked} in ${fpWindows} windows read at their own speed.`);
console.log(
  `\nFalse positives across a pause: ${pairMarked} in ${pairWindows} pairs of stretches (${sides.length} stretches of unmarked audio, ${LANGUAGES.length} more languages among them); ` +
    `the likeliest pair's chance ${lowestChance.toExponential(2)} against the ${m.PRESENCE_FALSE_POSITIVES} that marks.`,
);
console.log(
  `\nLoudness: unmarked ${loudPlain} LUFS, marked ${loudMarked} LUFS (difference ${(loudMarked - loudPlain).toFixed(2)} LU). ` +
    `Log-spectral distance (0-8 kHz, 1024-sample Hann frames, speech frames): ${distortion.lsd.toFixed(2)} dB; mark-to-speech ratio ${(-distortion.snr).toFixed(1)} dB.`,
);
