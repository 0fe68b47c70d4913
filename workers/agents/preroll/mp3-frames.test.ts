import { describe, expect, it } from "vitest";
import { encodeMp3 } from "../../../test/support/mp3";
import { firstAudioFrame, frameHeader, id3Without, joinable } from "./mp3-frames";

/** A second of a quiet tone at the master rate, through the same LAME encoder the renders use. */
async function mp3(seconds: number): Promise<Uint8Array> {
  const rate = 24_000;
  const samples = new Int16Array(rate * seconds);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(3000 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return encodeMp3({ samples, sampleRate: rate });
}

describe("MP3 frames", () => {
  it("finds the first frame and walks the file frame by frame to its end", async () => {
    const bytes = await mp3(1);
    const { offset, header } = firstAudioFrame(bytes.subarray(0, 4096));
    expect(offset).toBe(0); // the encoder writes neither an ID3 tag nor an Info frame
    expect(header).toMatchObject({ version: "mpeg2", sampleRate: 24_000, mono: true });
    let at = offset;
    let frames = 0;
    for (let h = frameHeader(bytes, at); h; h = frameHeader(bytes, at)) {
      at += h.length;
      frames++;
    }
    expect(at).toBe(bytes.length);
    // 576 samples a frame at 24 kHz: at least one second of frames (plus the encoder's delay and padding).
    expect(frames).toBeGreaterThanOrEqual(24_000 / 576);
  });

  it("steps over an ID3v2 tag and a Xing/Info frame", async () => {
    const bytes = await mp3(1);
    const first = frameHeader(bytes, 0)!;
    // An Info frame: a frame whose side information (9 bytes, MPEG-2 mono) is followed by "Info".
    const info = bytes.slice(0, first.length);
    info.set(new TextEncoder().encode("Info"), 4 + 9);
    // An ID3v2.4 tag of 20 bytes of payload (size as four 7-bit bytes).
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 20, ...new Uint8Array(20)]);
    const file = new Uint8Array([...id3, ...info, ...bytes]);
    expect(firstAudioFrame(file).offset).toBe(id3.length + info.length);
  });

  it("drops frames from an ID3v2.4 tag and fixes its size", () => {
    // Frames of 6 and 5 bytes of payload (sizes synchsafe, as ID3v2.4 writes them).
    const frame = (id: string, payload: number[]) => [...new TextEncoder().encode(id), 0, 0, 0, payload.length, 0, 0, ...payload];
    const tit2 = frame("TIT2", [3, 84, 105, 116, 108, 101]);
    const geob = frame("GEOB", [0, 1, 2, 3, 4]);
    const tag = (...frames: number[][]) => Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, frames.flat().length, ...frames.flat()]);
    expect(id3Without(tag(tit2, geob), ["GEOB"])).toEqual(tag(tit2));
    expect(id3Without(tag(tit2), ["GEOB"])).toEqual(tag(tit2));
  });

  it("refuses bytes that are not MP3 and tells joinable streams apart", () => {
    expect(() => firstAudioFrame(new TextEncoder().encode("RIFF....WAVEfmt "))).toThrow(/not an MP3/);
    const a = { version: "mpeg2", sampleRate: 24_000, mono: true, length: 192 } as const;
    expect(joinable(a, { ...a, length: 193 })).toBe(true);
    expect(joinable(a, { ...a, sampleRate: 22_050 })).toBe(false);
  });
});
