import { store } from "../../../test/support/render-store";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { probeAudio, transformAudio } from "../../../test/support/audio-probe";
import { audioObjects, database } from "../../db/index";
import { audioObjectPath, masterObjectPaths } from "../../kernel/audio-objects";
import { offlineSynthesizer } from "../engine/offline";
import { unitSamples } from "../engine/units";
import { decodeWav } from "../engine/wav";
import { renderText } from "./render";

const PARAGRAPHS = [
  "The council met on Tuesday evening to discuss the new cycling lanes.",
  "Residents had waited two years for a decision, and many of them came to listen.",
  "After a long debate the plan was approved by seven votes to four.",
  "Work on the first section will begin in the spring, the mayor said.",
];
const RATE = 24_000;
/** LAME's encoder delay and its decoder's: where the MP3's first sample of the master sits. */
const MP3_DELAY = 576 + 529;

async function stored(path: string): Promise<Uint8Array> {
  return new Uint8Array(await (await env.AUDIO.get(path))!.arrayBuffer());
}

/** A decoded file (through ffmpeg) as 16-bit samples at 24 kHz. */
async function decoded(bytes: Uint8Array, ext: string): Promise<Float32Array> {
  return decodeWav(await transformAudio(bytes, ext, "none")).samples.map((s) => s * 32768);
}

const rms = (x: ArrayLike<number>, from: number, to: number) => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += x[i] ** 2;
  return Math.sqrt(sum / (to - from));
};

describe("audio encoded by the paragraph (engine/units.ts)", () => {
  it("lays each paragraph's own MP3 frames and Opus packets end to end: exact durations, no gap and no click at the joins", async () => {
    const rendered = await renderText(store, { text: PARAGRAPHS.join("\n\n"), voice: "en-US-male" }, { offline: offlineSynthesizer });
    const row = await database(env).select().from(audioObjects).where(eq(audioObjects.key, rendered.key)).get();
    const bytes = await stored(masterObjectPaths(rendered.key, row!.segments)[0]);
    const master = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
    expect(master.length % unitSamples(RATE)).toBe(0);

    // Every unit's frames decode to exactly its samples: the files last what the master does (ffprobe
    // counts an Ogg's pre-skip, the encoder's 6.5 ms look-ahead, in its duration; decoders drop it).
    const mp3 = await stored(audioObjectPath(rendered.key, "mp3"));
    const opus = await stored(audioObjectPath(rendered.key, "opus"));
    for (const [file, ext, codec, tolerance] of [
      [mp3, "mp3", "mp3", 0.001],
      [opus, "opus", "opus", 0.007],
    ] as const) {
      const p = await probeAudio(file, ext);
      expect(p, ext).toMatchObject({ codec, channels: 1 });
      expect(Math.abs(p.duration - master.length / RATE), `${ext} duration ${p.duration}`).toBeLessThanOrEqual(tolerance);
      expect(p.true_peak_dbtp, `${ext} true peak`).toBeLessThanOrEqual(-1);
    }
    const fromMp3 = await decoded(mp3, "mp3");
    const fromOpus = await decoded(opus, "opus");
    expect(fromMp3.length).toBe(master.length);
    expect(Math.abs(fromOpus.length - master.length)).toBeLessThanOrEqual(1); // ffmpeg's 48 to 24 kHz rounding

    // The joins: each paragraph's unit ends on a unit boundary with silence on both sides. There the
    // decoded audio stays silent (no click), and each paragraph's speech is where the master has it
    // (no gap, no shift) at the master's loudness.
    const unit = unitSamples(RATE);
    const silent = 2_400; // the master is silent 100 ms either side of a join
    const window = 600; // the decoded audio is looked at 25 ms either side: codecs smear speech's edges by a few ms
    let joins = 0;
    for (let at = unit; at < master.length; at += unit) {
      if (rms(master, at - silent, at + silent) !== 0) continue;
      joins++;
      expect(rms(fromMp3, at + MP3_DELAY - window, at + MP3_DELAY + window), `MP3 at ${at}`).toBeLessThan(4);
      expect(rms(fromOpus, at - window, at + window), `Opus at ${at}`).toBeLessThan(4);
    }
    expect(joins).toBeGreaterThanOrEqual(PARAGRAPHS.length - 1);
    const starts = row!.paragraphStarts as number[];
    expect(starts).toHaveLength(PARAGRAPHS.length);
    for (const start of starts) {
      const speech = rms(master, start, start + 4_800);
      const level = (x: Float32Array, shift: number) => 20 * Math.log10(rms(x, start + shift, start + shift + 4_800) / speech);
      expect(Math.abs(level(fromMp3, MP3_DELAY)), `MP3 level at ${start}`).toBeLessThan(1);
      expect(Math.abs(level(fromOpus, 0)), `Opus level at ${start}`).toBeLessThan(1.5);
      // Sample by sample, the MP3's speech is the master's, not a neighbour's shifted into place.
      let error = 0;
      for (let i = start; i < start + 4_800; i++) error += (fromMp3[i + MP3_DELAY] - master[i]) ** 2;
      expect(20 * Math.log10(Math.sqrt(error / 4_800) / speech), `MP3 error at ${start}`).toBeLessThan(-10);
    }
  }, 120_000);
});
