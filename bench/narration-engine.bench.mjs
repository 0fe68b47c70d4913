// Offline engine speed (real-time factor, characters per CPU second) and MP3 and Opus encode speed
// (x real time), measured inside workerd: a Worker of the bench's own (bench/engine-worker), built from
// the render Worker's engine and encoders, times each stage of one article in its own wrangler dev; then
// the same article as paragraphs through the whole render pipeline, beside its parts (issue 44 item 2).
import { freePort, startWorker } from "../scripts/local.mjs";

const ARTICLE = `The city council met on Tuesday evening to discuss the long-awaited cycling lanes on the main road.
Residents had waited two years for a decision, and more than a hundred of them came to listen. The plan adds
protected lanes in both directions, removes forty parking spaces and lowers the speed limit to thirty
kilometres an hour. Shop owners worried about deliveries; the transport officer replied that loading bays
would stay open before ten in the morning. After a debate of almost three hours the plan was approved by
seven votes to four. Work on the first section will begin in the spring, the mayor said, and the whole
route should be finished before the end of next year. A public survey will follow six months later.`.replace(/\s+/g, " ");

/** Runs of the parts and of the pipeline, taken in pairs. */
const PAIRS = 9;

export async function run() {
  const engine = await startWorker({
    port: await freePort(),
    quiet: true,
    persistTo: ".wrangler/bench-engine-state",
    configs: ["-c", "bench/engine-worker/wrangler.toml"],
    readyPath: "/",
    readyStatus: 405,
  });
  const measure = async () => (await fetch(engine.base, { method: "POST", body: ARTICLE })).json();
  // The same text as paragraphs (one a sentence), through the whole pipeline (bench/engine-worker measurePipeline).
  const paragraphs = ARTICLE.replace(/\. /g, ".\n\n");
  const pipeline = async () => (await fetch(new URL("/pipeline", engine.base), { method: "POST", body: paragraphs })).json();
  const runs = [];
  const pipelineRuns = [];
  try {
    // Warm-up: compiles and caches the WebAssembly modules.
    await measure();
    await pipeline();
    // In pairs, the parts then the pipeline: a pair is measured under one load, so their ratio holds on
    // a shared machine where the load moves between minutes (three runs of each apart read 1.5 to 2.0).
    for (let i = 0; i < PAIRS; i++) {
      runs.push(await measure());
      pipelineRuns.push(await pipeline());
    }
  } finally {
    engine.child.kill();
  }
  const median = (f, of = runs) => of.map(f).sort((a, b) => a - b)[of.length >> 1];
  const m = runs[0];
  const partsSpeed = (r) => r.characters / ((r.synth_ms + r.mp3_ms + r.opus_ms) / 1000);
  const pipelineSpeed = (r) => r.characters / (r.pipeline_ms / 1000);
  const parts = median(partsSpeed);
  const whole = median(pipelineSpeed, pipelineRuns);
  const ratios = runs.map((r, i) => partsSpeed(r) / pipelineSpeed(pipelineRuns[i])).sort((a, b) => a - b);
  const pipelineBench = `render pipeline (renderText, offline engine, store in memory, every paragraph watermarked), the same article as ${paragraphs.split("\n\n").length} paragraphs`;
  const bench = `offline engine (eSpeak NG WASM) + encoders, one ${m.characters}-character article`;
  return [
    { benchmark: bench, metric: "audio produced", value: m.audio_seconds.toFixed(1), unit: "s" },
    { benchmark: bench, metric: "engine real-time factor", value: median((r) => r.audio_seconds / (r.synth_ms / 1000)).toFixed(0), unit: "x real time" },
    { benchmark: bench, metric: "engine speed", value: median((r) => r.characters / (r.synth_ms / 1000)).toFixed(0), unit: "chars/CPU s" },
    { benchmark: bench, metric: "MP3 encode (64 kbit/s CBR)", value: median((r) => r.audio_seconds / (r.mp3_ms / 1000)).toFixed(0), unit: "x real time" },
    { benchmark: bench, metric: "Opus encode (32 kbit/s, 24 kHz)", value: median((r) => r.audio_seconds / (r.opus_ms / 1000)).toFixed(0), unit: "x real time" },
    { benchmark: bench, metric: "engine + MP3 + Opus alone", value: parts.toFixed(0), unit: "chars/CPU s" },
    { benchmark: pipelineBench, metric: "pipeline speed", value: whole.toFixed(0), unit: "chars/CPU s" },
    {
      benchmark: pipelineBench,
      metric: `pipeline CPU per character against its parts', median of ${PAIRS} pairs (goal 1.5)`,
      value: ratios[PAIRS >> 1].toFixed(2),
      unit: `x (pairs ${ratios[0].toFixed(2)} to ${ratios[PAIRS - 1].toFixed(2)})`,
    },
    { benchmark: pipelineBench, metric: "of which encoding, by the paragraph (phases)", value: median((r) => r.encodingMs, pipelineRuns), unit: "ms" },
  ];
}
