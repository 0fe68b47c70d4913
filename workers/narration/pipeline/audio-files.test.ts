import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { offlineSynthesizer } from "../engine/offline";
import { audioObjectPath } from "../objects";
import type { AudioFormat } from "../urls";
import { renderText } from "./render";
import { encodeStored } from "./store";

declare module "vitest" {
  interface ProvidedContext {
    audioProbeUrl: string;
  }
}

interface Probe {
  format: string;
  duration: number;
  codec: string;
  sample_rate: number;
  channels: number;
  integrated_lufs: number;
  true_peak_dbtp: number;
}

/** Checks a stored file with ffprobe and ffmpeg's ebur128 filter (scripts/audio-probe-setup.mjs). */
async function probe(key: string, format: AudioFormat): Promise<Probe> {
  const object = await env.AUDIO.get(audioObjectPath(key, format));
  const res = await fetch(`${inject("audioProbeUrl")}?ext=${format}`, { method: "POST", body: await object!.arrayBuffer() });
  if (!res.ok) throw new Error(`ffprobe failed: ${await res.text()}`);
  return res.json();
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
    const rendered = await renderText(env, { text: ARTICLE, voice: "en-US-male" }, { offline: offlineSynthesizer });
    await encodeStored(env, rendered.key, "opus");
    await encodeStored(env, rendered.key, "wav");
    // MP3 without a gapless header carries LAME's encoder delay (576 samples plus its 529-sample
    // decoder delay) and pads the last 1,152-sample frame: at most about 0.12 s at 24 kHz. Ogg Opus
    // trims pre-skip and padding by granule position (RFC 7845 §4.2, §4.4) to within ffprobe's rounding;
    // WAV is the samples themselves.
    const expected = [
      ["mp3", "mp3", "mp3", 0.12],
      ["opus", "opus", "ogg", 0.01],
      ["wav", "pcm_s16le", "wav", 0.001],
    ] as const;
    for (const [format, codec, container, tolerance] of expected) {
      const p = await probe(rendered.key, format);
      expect(p, format).toMatchObject({ codec, format: container, channels: 1 });
      expect(Math.abs(p.duration - rendered.duration_seconds), `${format} duration`).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(p.integrated_lufs - -16), `${format} loudness ${p.integrated_lufs}`).toBeLessThanOrEqual(0.5);
      expect(p.true_peak_dbtp, `${format} true peak`).toBeLessThanOrEqual(-1);
    }
  });
});
