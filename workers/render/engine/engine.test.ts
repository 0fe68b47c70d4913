import { describe, expect, it } from "vitest";
import { joinPieces, pieceToInt16 } from "./join";
import { integratedLoudness, normalizeLoudness, truePeak } from "./loudness";
import { encodeMp3, mp3Stream } from "./mp3";
import { espeak } from "./offline";
import { encodeOggOpus, oggOpusStream } from "./opus";
import { concatBytes, floatToInt16, int16LeBytes, pcmDuration, type Pcm } from "./pcm";
import { resample } from "./resample";
import { decodeWav, wavFromInt16 } from "./wav";

const dbtp = (x: number) => 20 * Math.log10(x);
const int16 = (samples: Float32Array) => Int16Array.from(samples, floatToInt16);

describe("offline engine (eSpeak NG in WebAssembly)", () => {
  it("speaks English text as 22,050 Hz mono", async () => {
    const pcm = await espeak("The quick brown fox jumps over the lazy dog.", "en-us");
    expect(pcm.sampleRate).toBe(22_050);
    // About two to four seconds of speech.
    expect(pcmDuration(pcm)).toBeGreaterThan(1.5);
    expect(pcmDuration(pcm)).toBeLessThan(5);
    expect(Math.max(...pcm.samples.map(Math.abs))).toBeGreaterThan(0.05);
  });

  it("takes any text safely, including a leading dash and quotes", async () => {
    const pcm = await espeak('-v "quoted" text', "en+f2");
    expect(pcmDuration(pcm)).toBeGreaterThan(0.3);
  });
  it("speaks the same in a memory an earlier run used as in a new one, and two runs at once each in their own", async () => {
    const text = "Residents had waited two years for a decision.";
    const first = await espeak(text, "en-us");
    await espeak("A different voice, to leave another run's state behind.", "en+f3");
    expect(Array.from((await espeak(text, "en-us")).samples)).toEqual(Array.from(first.samples));
    const other = await espeak("The plan was approved by seven votes to four.", "en-gb");
    const [again, otherAgain] = await Promise.all([espeak(text, "en-us"), espeak("The plan was approved by seven votes to four.", "en-gb")]);
    expect(Array.from(again.samples)).toEqual(Array.from(first.samples));
    expect(Array.from(otherAgain.samples)).toEqual(Array.from(other.samples));
  });
  it("refuses a run that stopped before it spoke (a voice it has no data for), never an empty narration", async () => {
    await expect(espeak("Hello.", "xx-no-such-voice")).rejects.toThrow(/espeak-ng produced no audio/);
  });
});

describe("joining pieces", () => {
  const tone = (seconds: number, rate: number, level: number): Pcm => ({
    samples: Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => level * Math.sin((2 * Math.PI * 200 * i) / rate) + level / 2),
    sampleRate: rate,
  });

  it("puts one fixed pause between pieces and fades every cut to zero (no clicks)", () => {
    const rate = 24_000;
    const pieces = [pieceToInt16(tone(0.5, rate, 0.5), rate), pieceToInt16(tone(0.5, rate, 0.5), rate)];
    const joined = joinPieces(pieces);
    expect(pieces).toHaveLength(0); // consumed: no piece outlives its copy
    // 100 ms edges, 300 ms pause, two half-second pieces (their audible spans are the whole piece).
    expect(joined.samples.length).toBe(Math.round(rate * (0.1 + 0.5 + 0.3 + 0.5 + 0.1)));
    const firstEnd = Math.round(rate * 0.6);
    const secondStart = Math.round(rate * 0.9);
    const x = (i: number) => joined.samples[i] / 32768;
    expect(Math.abs(x(firstEnd - 1))).toBeLessThan(0.01);
    expect(Math.abs(x(secondStart))).toBeLessThan(0.01);
    // The largest step between neighbouring samples anywhere is no bigger than inside the tone itself.
    let step = 0;
    for (let i = 1; i < joined.samples.length; i++) step = Math.max(step, Math.abs(x(i) - x(i - 1)));
    expect(step).toBeLessThan(0.05);
  });
});

describe("loudness", () => {
  it("normalises speech to -16 LUFS integrated with true peak at most -1 dBTP", async () => {
    const speech = resample(await espeak("Loudness is measured in LUFS. Podcasts aim for minus sixteen.", "en-us"), 24_000);
    const quiet = int16(speech.samples.map((s) => s * 0.05));
    const normalised = normalizeLoudness(quiet, 24_000);
    expect(integratedLoudness(normalised, 24_000)).toBeCloseTo(-16, 0);
    expect(dbtp(truePeak(normalised))).toBeLessThanOrEqual(-1);
  });

  it("limits isolated spikes without missing the loudness target", async () => {
    const speech = resample(await espeak("A sudden click should not set the level.", "en-us"), 24_000);
    const spiky = int16(speech.samples);
    for (let i = 5_000; i < spiky.length; i += 9_000) spiky[i] = floatToInt16(0.99); // clicks far above the speech
    const normalised = normalizeLoudness(spiky, 24_000);
    expect(normalised).toBe(spiky); // in place
    expect(integratedLoudness(normalised, 24_000)).toBeCloseTo(-16, 0);
    expect(dbtp(truePeak(normalised))).toBeLessThanOrEqual(-2);
  });

  it("lands within a tenth of a loudness unit of -16 LUFS on every English voice, from quiet or loud speech", async () => {
    // The limiter's model aims each trial (loudness.ts LimiterModel): a model that missed would leave
    // the last of the trials short of the target.
    for (const voice of ["en-us", "en-us+f3", "en-gb", "en-us+m3"]) {
      const speech = resample(await espeak("After a debate of almost three hours the plan was approved by seven votes to four.", voice), 24_000);
      for (const level of [0.1, 1]) {
        const normalised = normalizeLoudness(int16(speech.samples.map((s) => s * level)), 24_000);
        expect(Math.abs(integratedLoudness(normalised, 24_000) + 16)).toBeLessThan(0.1);
        expect(dbtp(truePeak(normalised))).toBeLessThan(-3.99); // -4 dBTP, but for the rounding to 16 bits
      }
    }
  });

  it("changes nothing but the gain beyond the limiter's reach of a peak: every other sample keeps its place", () => {
    // A quiet tone, whose gain to -16 LUFS leaves it under the ceiling, with one click the limiter takes.
    const rate = 24_000;
    const tone = int16(Float32Array.from({ length: 2 * rate }, (_, i) => 0.05 * Math.sin((2 * Math.PI * 440 * i) / rate)));
    const click = rate;
    tone[click] = floatToInt16(0.99);
    const input = tone.slice();
    const normalised = normalizeLoudness(tone, rate);
    expect(Math.abs(normalised[click])).toBeLessThan(Math.abs(input[click]));
    const reach = rate / 50; // 20 ms, past the limiter's 5 ms window and its average
    const far = (i: number) => Math.abs(i - click) > reach;
    const peak = input.findIndex((v, i) => far(i) && v === Math.max(...input.subarray(0, click - reach)));
    const gain = normalised[peak] / input[peak];
    expect(gain).toBeGreaterThan(2);
    input.forEach((v, i) => {
      if (far(i)) expect(Math.abs(normalised[i] - v * gain), `sample ${i}`).toBeLessThan(1.5); // both roundings to 16 bits
    });
  });

  it("leaves silence alone", () => {
    const silence = new Int16Array(24_000);
    expect(normalizeLoudness(silence, 24_000)).toEqual(new Int16Array(24_000));
  });
});

describe("encoders", () => {
  const pcm: Pcm = { samples: Float32Array.from({ length: 24_000 }, (_, i) => 0.3 * Math.sin(i / 10)), sampleRate: 24_000 };

  it("writes MP3 frames (MPEG audio sync word)", async () => {
    const mp3 = await encodeMp3({ samples: int16(pcm.samples), sampleRate: pcm.sampleRate });
    const at = mp3[0] === 0x49 ? 10 + ((mp3[6] << 21) | (mp3[7] << 14) | (mp3[8] << 7) | mp3[9]) : 0; // skip an ID3v2 tag
    expect(mp3[at]).toBe(0xff);
    expect(mp3[at + 1] & 0xe0).toBe(0xe0);
  });

  it("writes Ogg Opus deterministically for one serial", async () => {
    const pcm16 = int16(pcm.samples);
    const a = await encodeOggOpus(pcm16, 24_000, 1234);
    const b = await encodeOggOpus(pcm16, 24_000, 1234);
    expect(new TextDecoder().decode(a.subarray(0, 4))).toBe("OggS");
    expect(new TextDecoder().decode(a.subarray(28, 36))).toBe("OpusHead");
    expect(a).toEqual(b);
  });

  it("encodes segments fed one after another exactly as the whole, for MP3 and Ogg Opus", async () => {
    const pcm16 = int16(pcm.samples);
    const cut = 9_973; // inside an MP3 frame and an Opus frame
    const mp3 = await mp3Stream(24_000);
    const mp3Parts = [...mp3.encode(pcm16.subarray(0, cut)), ...mp3.encode(pcm16.subarray(cut)), mp3.finish()];
    expect(concatBytes(mp3Parts)).toEqual(await encodeMp3({ samples: pcm16, sampleRate: 24_000 }));
    const opus = await oggOpusStream(24_000, 99);
    const opusPages = [...opus.encode(pcm16.subarray(0, cut)), ...opus.encode(pcm16.subarray(cut)), ...opus.finish()];
    expect(concatBytes(opusPages)).toEqual(await encodeOggOpus(pcm16, 24_000, 99));
  });

  it("round-trips WAV", () => {
    const back = decodeWav(wavFromInt16(int16LeBytes(int16(pcm.samples)), pcm.sampleRate));
    expect(back.sampleRate).toBe(24_000);
    expect(back.samples.length).toBe(24_000);
    expect(Math.abs(back.samples[100] - pcm.samples[100])).toBeLessThan(1e-4);
  });
});
