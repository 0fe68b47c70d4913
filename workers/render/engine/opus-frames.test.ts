import { describe, expect, it } from "vitest";
import { probeAudio } from "../../../test/support/audio-probe";
import { encodeOggOpus } from "./opus";

const RATE = 24_000;

/** Four seconds of `wave` (one cycle over [0, 1) to [-1, 1]) at `hz`, its samples peaking at -3 dBFS. */
function tone(wave: (phase: number) => number, hz: number): Int16Array {
  const peak = 32767 * 10 ** (-3 / 20);
  return Int16Array.from({ length: 4 * RATE }, (_, i) => Math.round(peak * wave(((i * hz) / RATE) % 1)));
}

// ffmpeg decodes the files as a player would, and its ebur128 filter measures the true peak. Speech
// (where dips are rare and the loudness stays put) is checked on a rendered article in
// pipeline/audio-files.test.ts; these tones overshoot in every frame, the hardest case.
describe("Opus frames guarded against codec overshoot", () => {
  it("a sawtooth, which libopus alone decodes at about -0.1 dBTP, stays at or below -1 dBTP", async () => {
    const p = await probeAudio(
      await encodeOggOpus(
        tone((p) => 2 * p - 1, 220),
        RATE,
        7,
      ),
      "opus",
    );
    expect(p.true_peak_dbtp).toBeLessThanOrEqual(-1);
    expect(Math.abs(p.duration - 4)).toBeLessThanOrEqual(0.01); // ffprobe counts the pre-skip (6.5 ms)
  });

  it("a square wave, which libopus alone decodes at about +1.6 dBTP, stays at or below -1 dBTP", async () => {
    const square = tone((p) => (p < 0.5 ? 1 : -1), 150);
    expect((await probeAudio(await encodeOggOpus(square, RATE, 7), "opus")).true_peak_dbtp).toBeLessThanOrEqual(-1);
  });
});
