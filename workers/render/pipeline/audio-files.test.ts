import { holdingMasters, store } from "../../../test/support/render-store";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { probeAudio } from "../../../test/support/audio-probe";
import { offlineSynthesizer } from "../engine/offline";
import { eq } from "drizzle-orm";
import { audioObjects, database } from "../../db/index";
import { audioObjectPath, masterObjectPaths } from "../../kernel/audio-objects";
import type { AudioFormat } from "../../kernel/public-urls";
import { renderText } from "./render";
import { encodeStored } from "./store";

/** Checks a stored file with ffprobe and ffmpeg's ebur128 filter. */
async function probe(key: string, format: AudioFormat) {
  const object = await env.AUDIO.get(audioObjectPath(key, format));
  return probeAudio(await object!.arrayBuffer(), format);
}

const ARTICLE = [
  "The council met on Tuesday evening to discuss the new cycling lanes.",
  "Residents had waited two years for a decision, and many of them came to listen.",
  "After a long debate the plan was approved by seven votes to four.",
  "Work on the first section will begin in the spring, the mayor said.",
].join(" ");

// Storage is reset before each test, so one test renders once and checks every encoding.
describe("rendered files (ffprobe, ebur128)", () => {
  it("MP3, Ogg Opus and WAV are valid, last the rendered duration, and sit at -16 LUFS with true peak <= -1 dBTP", async () => {
    const rendered = await renderText(store, { text: ARTICLE, voice: "en-US-male" }, { offline: offlineSynthesizer });
    await encodeStored(store, rendered.key, "opus");
    await encodeStored(store, rendered.key, "wav");
    // The MP3 is whole frames of each paragraph's unit, exactly the master's length (engine/units.ts);
    // Ogg Opus trims pre-skip and padding by granule position (RFC 7845 §4.2, §4.4), ffprobe counting the
    // 6.5 ms pre-skip; WAV is the samples themselves.
    // Loudness: MP3 makes up LAME's level loss (mp3.ts), so it sits with WAV on the master's -16;
    // Opus at 32 kbit/s drops a few tenths of high-frequency energy.
    const expected = [
      ["mp3", "mp3", "mp3", 0.001, 0.2],
      ["opus", "opus", "ogg", 0.01, 0.5],
      ["wav", "pcm_s16le", "wav", 0.001, 0.2],
    ] as const;
    for (const [format, codec, container, tolerance, lufsTolerance] of expected) {
      const p = await probe(rendered.key, format);
      expect(p, format).toMatchObject({ codec, format: container, channels: 1 });
      expect(Math.abs(p.duration - rendered.duration_seconds), `${format} duration`).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(p.integrated_lufs - -16), `${format} loudness ${p.integrated_lufs}`).toBeLessThanOrEqual(lufsTolerance);
      expect(p.true_peak_dbtp, `${format} true peak`).toBeLessThanOrEqual(-1);
    }
  });

  it("a render given `later` records its audio before its master is stored; a WAV asked for meanwhile waits for the master", async () => {
    // The master's write is held until released; every other object is stored at once.
    const { store: holding, release } = holdingMasters();
    const later: Promise<unknown>[] = [];
    const rendered = await renderText(
      holding,
      { text: ARTICLE, voice: "en-US-female" },
      { offline: offlineSynthesizer },
      { later: (work) => later.push(work) },
    );
    const [master] = masterObjectPaths(rendered.key, 1);
    expect(await database(env).select().from(audioObjects).where(eq(audioObjects.key, rendered.key)).get()).toBeTruthy();
    expect(await env.AUDIO.head(audioObjectPath(rendered.key, "mp3"))).not.toBeNull();
    expect(await env.AUDIO.head(master)).toBeNull();

    const wav = encodeStored(store, rendered.key, "wav");
    let built = false;
    void wav.then(() => {
      built = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(built).toBe(false); // waiting for the master, not answering that there is none
    release();
    await Promise.all(later);
    expect((await wav)?.bytes).toBe(44 + (await env.AUDIO.head(master))!.size);
    const p = await probe(rendered.key, "wav");
    expect(Math.abs(p.duration - rendered.duration_seconds)).toBeLessThanOrEqual(0.001);
  });

  it("a long article renders in segments into one MP3 of the whole duration at -16 LUFS, and Opus and WAV span every segment", async () => {
    const text = Array.from({ length: 86 }, (_, i) => `Part ${i + 1}. ${ARTICLE}`).join(" "); // about 25,500 characters
    const rendered = await renderText(store, { text, voice: "en-US-male" }, { offline: offlineSynthesizer });
    const row = await database(env).select().from(audioObjects).where(eq(audioObjects.key, rendered.key)).get();
    // Segments of at most 10,000 characters (docs/narration-api.md).
    expect(row!.segments).toBe(Math.ceil(text.length / 10_000));
    const masters = await Promise.all(masterObjectPaths(rendered.key, row!.segments).map((p) => env.AUDIO.head(p)));
    expect(masters.reduce((n, m) => n + m!.size, 0) / 2 / 24_000).toBeCloseTo(rendered.duration_seconds, 6);
    await encodeStored(store, rendered.key, "opus");
    await encodeStored(store, rendered.key, "wav");
    // Units never span segments, so the MP3 and Opus are their units' frames across them;
    // each segment is normalised on its own, so the whole sits within 1 LU of the target. This text
    // has loud vowels and onsets after closures where libopus overshoots unless guarded (opus-frames.ts).
    const expected = [
      ["mp3", "mp3", "mp3", 0.12],
      ["opus", "opus", "ogg", 0.01],
      ["wav", "pcm_s16le", "wav", 0.001],
    ] as const;
    for (const [format, codec, container, tolerance] of expected) {
      const p = await probe(rendered.key, format);
      expect(p, format).toMatchObject({ codec, format: container, channels: 1 });
      expect(Math.abs(p.duration - rendered.duration_seconds), `${format} duration`).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(p.integrated_lufs - -16), `${format} loudness ${p.integrated_lufs}`).toBeLessThanOrEqual(1);
      expect(p.true_peak_dbtp, `${format} true peak`).toBeLessThanOrEqual(-1);
    }
    expect(rendered.duration_seconds).toBeGreaterThan(20 * 60);
  }, 600_000);
});
