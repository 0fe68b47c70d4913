import * as v from "valibot";
import { type AudioReach, audioUrl } from "../kernel/public-urls";

/** The three URLs of one audio key, as every narration response carries them. */
export const AudioUrlFields = {
  audio_url: v.pipe(v.nullable(v.string()), v.description("MP3 (canonical), when the audio exists.")),
  opus_url: v.pipe(v.nullable(v.string()), v.description("Ogg Opus (built on first request), when the audio exists.")),
  wav_url: v.pipe(v.nullable(v.string()), v.description("WAV (built on first request), when the audio exists.")),
};

export interface AudioUrls {
  audio_url: string | null;
  opus_url: string | null;
  wav_url: string | null;
}

/** The URLs of `key` in each encoding, or nulls when there is no audio yet; `reach` as kernel/public-urls.ts says. */
export function audioUrls(env: object, key: string | null, reach: AudioReach): AudioUrls {
  return {
    audio_url: key ? audioUrl(env, key, "mp3", reach) : null,
    opus_url: key ? audioUrl(env, key, "opus", reach) : null,
    wav_url: key ? audioUrl(env, key, "wav", reach) : null,
  };
}
