import { baseUrl } from "../core/config";

export const AUDIO_FORMATS = ["mp3", "opus", "wav"] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** The public URL of the audio stored under `key` in `format`. Stable forever: the bytes behind it never change. */
export function audioUrl(env: object, key: string, format: AudioFormat = "mp3"): string {
  return `${baseUrl(env)}/v1/audio/${key}.${format}`;
}
