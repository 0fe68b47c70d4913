import { describe, expect, it } from "vitest";
import { floatToInt16 } from "./pcm";
import { resample, resampleToInt16 } from "./resample";

const tone = (hz: number, rate: number, seconds: number) => ({
  samples: Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate)),
  sampleRate: rate,
});

/** The largest difference between `samples` and the tone they should be, away from the edges (where the kernel reads silence). */
function toneError(samples: Float32Array, hz: number, rate: number): number {
  const edge = Math.round(0.01 * rate);
  let worst = 0;
  for (let i = edge; i < samples.length - edge; i++) worst = Math.max(worst, Math.abs(samples[i] - 0.5 * Math.sin((2 * Math.PI * hz * i) / rate)));
  return worst;
}

const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / samples.length);

describe("resample", () => {
  it("brings eSpeak's 22,050 Hz to the 24 kHz master sample for sample, across the blocks the kernel computes at a time", () => {
    // Three seconds: 72,000 outputs, several of the kernel's blocks, each starting at its own phase.
    const out = resample(tone(1000, 22_050, 3), 24_000);
    expect(out.sampleRate).toBe(24_000);
    expect(out.samples.length).toBe(72_000);
    expect(toneError(out.samples, 1000, 24_000)).toBeLessThan(1e-3);
  });

  it("downsamples with a kernel whose width is not a multiple of four, and removes what the new rate cannot hold", () => {
    // 22,050 to 16,000 Hz: 46 taps a phase, laid out as 48.
    expect(toneError(resample(tone(3000, 22_050, 2), 16_000).samples, 3000, 16_000)).toBeLessThan(2e-3);
    // 10 kHz is over the 8 kHz Nyquist of the output: an alias would be as loud as the tone.
    expect(rms(resample(tone(10_000, 22_050, 2), 16_000).samples)).toBeLessThan(0.5 * 10 ** (-60 / 20));
  });

  it("resamples between rates too far apart in their ratio for a table (up over 4,096)", () => {
    const out = resample(tone(500, 22_051, 0.5), 24_000);
    expect(out.samples.length).toBe(Math.round((11_026 * 24_000) / 22_051));
    expect(toneError(out.samples, 500, 24_000)).toBeLessThan(1e-3);
  });

  it("returns its input when the rates are the same", () => {
    const input = tone(440, 24_000, 0.1);
    expect(resample(input, 24_000)).toBe(input);
  });

  it("makes 16 bits in the same step exactly as floatToInt16 makes them of the floats, clipping included", () => {
    // A loud tone with noise: about a third of its samples times the gain fall beyond full scale.
    const loud = tone(700, 22_050, 1.5);
    loud.samples.forEach((v, i) => {
      loud.samples[i] = 3 * v + 0.01 * Math.sin(i * i);
    });
    for (const [input, rate] of [
      [loud, 24_000],
      [loud, 16_000],
      [{ ...loud, sampleRate: 24_000 }, 24_000],
      [{ ...loud, sampleRate: 22_051 }, 24_000],
    ] as const) {
      const expected = Int16Array.from(resample(input, rate).samples, (v) => floatToInt16(v * 0.5));
      const got = resampleToInt16(input, rate, 0.5);
      expect(got.sampleRate).toBe(rate);
      expect(got.samples).toEqual(expected);
    }
  });
});
