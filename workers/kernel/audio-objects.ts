import { AUDIO_FORMATS, type AudioFormat } from "./public-urls";

/** A cache key: SHA-256 hex of provider, voice and normalised text. */
export const AUDIO_KEY_PATTERN = /^[0-9a-f]{64}$/;

/** R2 path of the public object for `key` in `format` (served by GET /v1/audio/{key}.{format}). */
export function audioObjectPath(key: string, format: AudioFormat): string {
  return `audio/${key}.${format}`;
}

/**
 * R2 paths of the private master: loudness-normalised mono 16-bit little-endian PCM at
 * MASTER_SAMPLE_RATE, from which Opus and WAV are built on first request. Never served. A render of
 * one segment has one master at master/<key>.pcm (as before segments existed, so older renders stay
 * valid); a render of n > 1 segments has master/<key>.0.pcm ... master/<key>.<n-1>.pcm, in order.
 */
export function masterObjectPaths(key: string, segments: number): string[] {
  return segments === 1 ? [`master/${key}.pcm`] : Array.from({ length: segments }, (_, n) => `master/${key}.${n}.pcm`);
}

/**
 * R2 path of the word timings of `key` (kernel/word-timings.ts): JSON written with the audio at
 * render time, absent for audio rendered before word timings. Never served as it is.
 */
export function wordTimingsPath(key: string): string {
  return `timings/${key}.json`;
}

/**
 * R2 path of the C2PA manifest of the Opus of `key` (render/pipeline/c2pa.ts): Ogg is not a format C2PA
 * embeds in, so the manifest is a file of its own beside the audio, served by GET /v1/audio/{key}.c2pa.
 */
export function c2paSidecarPath(key: string): string {
  return `audio/${key}.c2pa`;
}

/** The media type of a C2PA manifest store on its own (C2PA 2.2 §11.3). */
export const C2PA_CONTENT_TYPE = "application/c2pa";

/** Every R2 path that may exist for `key` rendered in `segments` segments (for deletion). */
export function allObjectPaths(key: string, segments = 1): string[] {
  return [...AUDIO_FORMATS.map((f) => audioObjectPath(key, f)), c2paSidecarPath(key), ...masterObjectPaths(key, segments), wordTimingsPath(key)];
}

/** Sample rate of the master and of every encoding (Opus supports it natively; RFC 7845 §5.1 records it). */
export const MASTER_SAMPLE_RATE = 24_000;

/** Content-Type of each public encoding. */
export const AUDIO_CONTENT_TYPES: Record<AudioFormat, string> = {
  mp3: "audio/mpeg",
  opus: "audio/ogg; codecs=opus",
  wav: "audio/wav",
};
