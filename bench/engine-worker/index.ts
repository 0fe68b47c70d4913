import { joinPieces, pieceToInt16 } from "../../workers/render/engine/join";
import { encodeMp3 } from "../../workers/render/engine/mp3";
import { espeak, espeakTimed, languageData, offlineSynthesizer } from "../../workers/render/engine/offline";
import { encodeOggOpus } from "../../workers/render/engine/opus";
import { pcmDuration } from "../../workers/render/engine/pcm";
import { hasKanji, kanjiReadings } from "../../workers/render/engine/readings";
import { spokenText } from "../../workers/render/engine/spoken-text";
import { MASTER_SAMPLE_RATE } from "../../workers/kernel/audio-objects";
import { splitText } from "../../workers/render/pipeline/chunk";
import { PROVIDERS } from "../../workers/kernel/voice-catalogue";
import { tick } from "../../workers/render/phases";
import { forgetParagraphHeads } from "../../workers/render/pipeline/paragraph-cache";
import { renderText } from "../../workers/render/pipeline/render";
import { useWatermark } from "../../workers/render/pipeline/watermark";
import type { ObjectRead, RenderStoreRpc, StoredAudio } from "../../workers/kernel/render-contract";

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
  const master = joinPieces(pieces.map((p) => pieceToInt16(p, MASTER_SAMPLE_RATE)));
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

/**
 * The render pipeline's own CPU (issue 44 item 2): the whole of renderText, offline engine, with a
 * RenderStore kept in this isolate's memory, so the time is the pipeline's work and not R2's or the
 * service binding's. Paragraphs are stored as a render stores them, and a new store per request
 * makes every paragraph voiced again: the isolate forgets the paragraph heads it holds, which name
 * objects of the last request's store (pipeline/paragraph-cache.ts). Every paragraph is watermarked,
 * as every render's is (the render Worker requires WATERMARK_KEY); the key is the local one of
 * .dev.vars.example.
 */
async function measurePipeline(text: string) {
  useWatermark(BENCH_WATERMARK);
  forgetParagraphHeads();
  const objects = new Map<string, Uint8Array>();
  const rows: StoredAudio[] = [];
  const store = {
    lexiconFor: async () => [],
    findAudio: async (keys: string[]) => rows.filter((r) => keys.includes(r.key)),
    recordAudio: async (row: StoredAudio) => void rows.push(row),
    async fetch(request: Request) {
      const path = new URL(request.url).pathname.slice("/objects/".length);
      if (request.method === "PUT") {
        objects.set(path, new Uint8Array(await request.arrayBuffer()));
        return new Response(null, { status: 201 });
      }
      const bytes = objects.get(path);
      return bytes ? new Response(bytes) : new Response(null, { status: 404 });
    },
    readObjects: async (reads: ObjectRead[]) =>
      reads.map(({ path, range }) => {
        const bytes = objects.get(path);
        return bytes ? { bytes: range ? bytes.slice(range.offset, range.offset + range.length) : bytes, size: bytes.byteLength } : null;
      }),
  } as unknown as RenderStoreRpc;
  const t0 = await tick();
  const phases = { synthesisMs: 0, encodingMs: 0, markingMs: 0 };
  const result = await renderText(store, { text, voice: "en-US-female" }, { offline: offlineSynthesizer }, { phases });
  const t1 = await tick();
  return { characters: text.length, audio_seconds: result.duration_seconds, pipeline_ms: t1 - t0, ...phases };
}

/**
 * One language, for bench/languages.bench.mjs: its data read from R2 and unpacked (cold the first time
 * an isolate asks for the voice, as in the render Worker), the bytes it keeps in the isolate, the
 * Japanese readings dictionary likewise when the text has kanji, then the text made ready
 * (spoken-text.ts) and narrated by the engine.
 */
async function measureLanguage(env: Env, voice: string, text: string) {
  const read = async (path: string) => (await env.AUDIO.get(path))?.arrayBuffer() ?? null;
  const t0 = await tick();
  const extra = await languageData(voice, read);
  const t1 = await tick();
  let readingsMs: number | null = null;
  if (voice === "ja" && hasKanji(text)) {
    await kanjiReadings(text, read);
    readingsMs = (await tick()) - t1;
  }
  const t2 = await tick();
  const pieces = [];
  for (const piece of splitText(text, PROVIDERS.offline.maxCharsPerRequest)) {
    pieces.push((await espeakTimed((await spokenText(piece, voice, [], read)).text, voice, extra)).pcm);
  }
  const t3 = await tick();
  return {
    load_ms: t1 - t0,
    readings_ms: readingsMs,
    data_bytes: extra.reduce((n, f) => n + f.bytes.byteLength, 0),
    characters: text.length,
    audio_seconds: pieces.reduce((n, p) => n + pcmDuration(p), 0),
    synth_ms: t3 - t2,
  };
}

const BENCH_WATERMARK = { WATERMARK_KEY: "dev-watermark-key-not-secret" };

interface Env {
  AUDIO: R2Bucket;
}

export default {
  async fetch(request, env) {
    if (request.method !== "POST") return new Response("POST an article's text", { status: 405, headers: { Allow: "POST" } });
    const url = new URL(request.url);
    const text = await request.text();
    const voice = url.searchParams.get("voice");
    if (voice) return Response.json(await measureLanguage(env, voice, text));
    if (url.pathname === "/pipeline") return Response.json(await measurePipeline(text));
    return Response.json(await measureEngine(text));
  },
} satisfies ExportedHandler<Env>;
