import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    audioProbeUrl: string;
  }
}

export interface Probe {
  format: string;
  duration: number;
  codec: string;
  sample_rate: number;
  channels: number;
  integrated_lufs: number;
  true_peak_dbtp: number;
  /** The file's tags as ffprobe names them (format and first stream's): ID3 frames of an MP3, Vorbis comments of an Opus file. */
  tags: Record<string, string>;
}

/** Checks an audio file with ffprobe and ffmpeg's ebur128 filter (scripts/audio-probe-setup.mjs). */
export async function probeAudio(bytes: BodyInit, ext: string): Promise<Probe> {
  const res = await fetch(`${inject("audioProbeUrl")}?ext=${ext}`, { method: "POST", body: bytes });
  if (!res.ok) throw new Error(`ffprobe failed: ${await res.text()}`);
  return res.json();
}

/**
 * The pauses of an audio file by ffmpeg's silencedetect: [start, end] in seconds of the decoded
 * stream for every stretch below `noiseDb` dBFS lasting at least `minSeconds`, in order.
 */
export async function detectSilences(bytes: BodyInit, ext: string, noiseDb: number, minSeconds: number): Promise<[number, number][]> {
  const url = new URL(inject("audioProbeUrl"));
  url.pathname = "/silences";
  url.search = new URLSearchParams({ ext, noise: String(noiseDb), min: String(minSeconds) }).toString();
  const res = await fetch(url, { method: "POST", body: bytes });
  if (!res.ok) throw new Error(`silencedetect failed: ${await res.text()}`);
  return res.json();
}

/** What the audio probe can put a file through (scripts/audio-probe-setup.mjs TRANSFORMS). */
export type AudioTransform = "mp3-32k" | "opus-24k" | "volume-6db" | "none";

/** `bytes` (a file of type `ext`) through `to` by ffmpeg, then decoded: a 24 kHz mono 16-bit WAV. */
export async function transformAudio(bytes: BodyInit, ext: string, to: AudioTransform): Promise<Uint8Array> {
  const url = new URL(inject("audioProbeUrl"));
  url.pathname = "/transform";
  url.search = new URLSearchParams({ ext, to }).toString();
  const res = await fetch(url, { method: "POST", body: bytes });
  if (!res.ok) throw new Error(`ffmpeg failed: ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}
