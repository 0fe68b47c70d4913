import { joinPieces, pieceToInt16 } from "../../workers/render/engine/join";
import { encodeMp3 } from "../../workers/render/engine/mp3";
import { espeak } from "../../workers/render/engine/offline";
import { encodeOggOpus } from "../../workers/render/engine/opus";
import { pcmDuration } from "../../workers/render/engine/pcm";
import { resample } from "../../workers/render/engine/resample";
import { MASTER_SAMPLE_RATE } from "../../workers/kernel/audio-objects";
import { splitText } from "../../workers/render/pipeline/chunk";
import { PROVIDERS } from "../../workers/kernel/voice-catalogue";
import { tick } from "../../workers/render/phases";

/**
 * Engine and encoder speed inside workerd, for bench/narration-engine.bench.mjs: POST / with an
 * article's text times each stage of the render Worker's own engine and encoders, each bracketed by a
 * timer wait (workers/render/phases.ts tick). A Worker of the bench's own, so that no measuring route
 * is compiled into the production render Worker.
 */
async function measureEngine(text: string) {
  const t0 = await tick();
  const pieces = [];
  for (const piece of splitText(text, PROVIDERS.offline.maxCharsPerRequest)) pieces.push(await espeak(piece, "en-us"));
  const t1 = await tick();
  const master = joinPieces(pieces.map((p) => pieceToInt16(resample(p, MASTER_SAMPLE_RATE))));
  const t2 = await tick();
  const mp3 = await encodeMp3(master);
  const t3 = await tick();
  const opus = await encodeOggOpus(master.samples, MASTER_SAMPLE_RATE, 1);
  const t4 = await tick();
  const audioSeconds = pcmDuration(master);
  return {
    characters: text.length,
    audio_seconds: audioSeconds,
    synth_ms: t1 - t0,
    mp3_ms: t3 - t2,
    opus_ms: t4 - t3,
    mp3_bytes: mp3.byteLength,
    opus_bytes: opus.byteLength,
  };
}

export default {
  async fetch(request) {
    if (request.method !== "POST") return new Response("POST an article's text", { status: 405, headers: { Allow: "POST" } });
    return Response.json(await measureEngine(await request.text()));
  },
} satisfies ExportedHandler;
