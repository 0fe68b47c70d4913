import { joinPieces, pieceToInt16 } from "./engine/join";
import { encodeMp3 } from "./engine/mp3";
import { espeak } from "./engine/offline";
import { encodeOggOpus } from "./engine/opus";
import { pcmDuration } from "./engine/pcm";
import { resample } from "./engine/resample";
import { MASTER_SAMPLE_RATE } from "../kernel/audio-objects";
import { splitText } from "./pipeline/chunk";
import { PROVIDERS } from "../kernel/voice-catalogue";
import { tick } from "./phases";

/**
 * Engine and encoder speed inside workerd, for bench/narration-engine.bench.mjs; each stage is
 * bracketed by a timer wait (phases.ts tick).
 */
export async function measureEngine(text: string) {
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
