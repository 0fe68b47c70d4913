// Measures the live memory of one offline render stage by stage, for docs/narration.md "Memory and long
// articles". workerd reports no memory use, so the render's own modules run in Node instead: bundled
// by esbuild with each .wasm as a compiled module and the .bin as an ArrayBuffer (as workerd imports
// them), and garbage collected before every reading. The join cannot be read from inside, so its peak
// is the pieces' reading plus the master's size; likewise normalisation's is the master's reading plus
// the 16-bit copy its limiter fills (loudness.ts normalizeLoudness). One text length (characters) per run, so no earlier
// render's memory is still being released during the readings; prints one JSON line.
//   for n in 2000 10000 20000; do node --expose-gc scripts/render-memory.mjs $n; done
import { importWorkerModules } from "./worker-modules.mjs";

if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");

const PROBE = `
import { joinPieces, pieceToInt16 } from "./workers/render/engine/join";
import { normalizeLoudness } from "./workers/render/engine/loudness";
import { encodeMp3 } from "./workers/render/engine/mp3";
import { espeak } from "./workers/render/engine/offline";
import { MASTER_SAMPLE_RATE } from "./workers/kernel/audio-objects";
import { markSamples } from "./workers/render/pipeline/watermark-embed";
import { markLayout, PLATFORM_ID } from "./workers/kernel/watermark/scheme";
import { splitText } from "./workers/render/pipeline/chunk";
import { PROVIDERS } from "./workers/kernel/voice-catalogue";
export { joinPieces, pieceToInt16, normalizeLoudness, encodeMp3, espeak, MASTER_SAMPLE_RATE, splitText, PROVIDERS, markSamples, markLayout, PLATFORM_ID };
`;

const engine = await importWorkerModules(PROBE);

/** MB held by the JavaScript heap and array buffers (WebAssembly memories included) after collection. */
async function live() {
  // A WebAssembly memory is released only after a collection and a turn of the event loop.
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

const sentence = "This sentence is part of a long article about narration, read aloud by the offline engine. ";
const chars = Number(process.argv[2]);
if (!(chars > 0)) throw new Error("usage: node --expose-gc scripts/render-memory.mjs <characters>");
const text = sentence.repeat(Math.ceil(chars / sentence.length)).slice(0, chars);
const rate = engine.MASTER_SAMPLE_RATE;
const before = await live();
const pieces = [];
for (const piece of engine.splitText(text, engine.PROVIDERS.offline.maxCharsPerRequest)) {
  pieces.push(engine.pieceToInt16(await engine.espeak(piece, "en-us"), rate));
}
const piecesHeld = (await live()) - before;
const master = engine.joinPieces(pieces);
const masterMb = master.samples.byteLength / 2 ** 20;
const joined = (await live()) - before;
engine.normalizeLoudness(master.samples, rate);
const normalised = (await live()) - before;
// Marked as a render marks each paragraph (workers/render/pipeline/watermark.ts): the marked copy beside the master.
const layout = await engine.markLayout("render-memory");
const marked = engine.markSamples(master.samples, layout, { synthetic: true, platform: engine.PLATFORM_ID, id: "00000000" });
const markPeak = (await live()) - before;
master.samples = marked;
const mp3 = await engine.encodeMp3(master);
const encoded = (await live()) - before;
const round = (x) => Math.round(x * 10) / 10;
console.log(
  JSON.stringify({
    characters: chars,
    minutes: round(master.samples.length / rate / 60),
    samples: master.samples.length,
    pieces_held_mb: round(piecesHeld),
    join_peak_mb: round(piecesHeld + masterMb),
    join_peak_bytes_per_sample: round(((piecesHeld + masterMb) * 2 ** 20) / master.samples.length),
    after_join_mb: round(joined),
    normalise_peak_mb: round(joined + masterMb),
    after_normalise_mb: round(normalised),
    mark_peak_mb: round(markPeak),
    after_mp3_mb: round(encoded),
    mp3_mb: round(mp3.byteLength / 2 ** 20),
  }),
);
