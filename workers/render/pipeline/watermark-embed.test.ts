import { describe, expect, it } from "vitest";
import { markLayout, PLATFORM_ID } from "../../kernel/watermark/scheme";
import { pieceToInt16 } from "../engine/join";
import { espeak } from "../engine/offline";
import { markSamples } from "./watermark-embed";

describe("markSamples", () => {
  it("marks a paragraph the same whatever the windows its kernel takes a call, and leaves its silence silent", async () => {
    // About eleven seconds, 260 windows, with silence before, between and after the words.
    const speech = pieceToInt16(
      await espeak("The council met on Tuesday evening. After a debate of almost three hours the plan was approved.", "en-us"),
      24_000,
    );
    const samples = new Int16Array(speech.samples.length + 24_000);
    samples.set(speech.samples, 12_000);
    const layout = await markLayout("a test key");
    const payload = { synthetic: true, platform: PLATFORM_ID, id: "0badcafe" };
    const whole = markSamples(samples, layout, payload, 1_000);
    expect(whole.length).toBe(samples.length);
    let changed = 0;
    for (let i = 0; i < samples.length; i++) {
      if (samples[i] === 0) expect(whole[i]).toBe(0);
      else if (whole[i] !== samples[i]) changed++;
    }
    expect(changed).toBeGreaterThan(samples.filter((v) => v !== 0).length / 2);
    for (const windowsPerCall of [1, 7, 64]) expect(markSamples(samples, layout, payload, windowsPerCall)).toEqual(whole);
    expect(markSamples(new Int16Array(0), layout, payload)).toEqual(new Int16Array(0));
  });
});
