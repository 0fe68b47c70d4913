import { AUDIO_FORMATS, type AudioFormat } from "./urls";

/** A cache key: SHA-256 hex of provider, voice and normalised text. */
export const AUDIO_KEY_PATTERN = /^[0-9a-f]{64}$/;

/** R2 path of the public object for `key` in `format` (served by GET /v1/audio/{key}.{format}). */
export function audioObjectPath(key: string, format: AudioFormat): string {
  return `audio/${key}.${format}`;
}

/**
 * R2 path of the private master: loudness-normalised mono 16-bit little-endian PCM at
 * MASTER_SAMPLE_RATE, from which Opus and WAV are built on first request. Never served.
 */
export function masterObjectPath(key: string): string {
  return `master/${key}.pcm`;
}

/** Every R2 path that may exist for `key` (for deletion). */
export function allObjectPaths(key: string): string[] {
  return [...AUDIO_FORMATS.map((f) => audioObjectPath(key, f)), masterObjectPath(key)];
}

/** Sample rate of the master and of every encoding (Opus supports it natively; RFC 7845 §5.1 records it). */
export const MASTER_SAMPLE_RATE = 24_000;

/** Content-Type of each public encoding. */
export const AUDIO_CONTENT_TYPES: Record<AudioFormat, string> = {
  mp3: "audio/mpeg",
  opus: "audio/ogg; codecs=opus",
  wav: "audio/wav",
};
