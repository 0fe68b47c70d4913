import { baseUrl } from "../core/config";

/**
 * The public URLs the platform hands out: audio files, podcast feeds, article pages and embeds.
 * They are stable forever (docs/rules.md "Rules" 4): podcast apps, embeds and shared links keep them, so
 * each is built here and nowhere else. The article page URL is built in core/config.ts (the web
 * front-end's importers still read it there) and re-exported here.
 */

export { articlePageUrl } from "../core/config";

export const AUDIO_FORMATS = ["mp3", "opus", "wav"] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** The public URL of the audio stored under `key` in `format`. Stable forever: the bytes behind it never change. */
export function audioUrl(env: object, key: string, format: AudioFormat = "mp3"): string {
  return `${baseUrl(env)}/v1/audio/${key}.${format}`;
}

/** Canonical path of the private feed of feed token `token`. */
export function privateFeedPath(token: string): string {
  return `/v1/podcasts/u/${encodeURIComponent(token)}.xml`;
}

/** The private podcast feed URL; it carries the private feed token, never the account token. */
export function privateFeedUrl(env: object, privateFeedToken: string): string {
  return `${baseUrl(env)}${privateFeedPath(privateFeedToken)}`;
}

/** Canonical path of the public feed of a podcast vertical or host persona, e.g. service-tech. */
export function serviceFeedPath(slug: string): string {
  return `/v1/podcasts/service-${slug}.xml`;
}
