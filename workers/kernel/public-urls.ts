import * as v from "valibot";
import { baseUrl, webUrl } from "../core/config";
import { audioCapability } from "./audio-capability";

/**
 * The public URLs the platform hands out: audio files, podcast feeds, article pages and embeds.
 * They are stable forever (docs/rules.md "Rules" 4): podcast apps, embeds and shared links keep them, so
 * each is built here and nowhere else. The article page URL is built in core/config.ts (the web
 * front-end's importers still read it there) and re-exported here.
 */

export { articlePageUrl } from "../core/config";

export const AUDIO_FORMATS = ["mp3", "opus", "wav"] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/**
 * Who may fetch a narration by its URL. `public`: a public article's audio, whose URL names its
 * content key (feeds, pages, embeds and agents have handed it out since the start). `private`: the
 * audio of a listener_private article, a publisher_only stub or a raw render, whose URL is a
 * capability (kernel/audio-capability.ts) that the text alone cannot give (issue 40 item 2).
 */
export type AudioReach = "public" | "private";

/** The reach of an article's narration, by its visibility (kernel/visibility.ts); null: raw text, no article. */
export function audioReachOf(article: { visibility: string | null }): AudioReach {
  return article.visibility === "public" ? "public" : "private";
}

/**
 * The URL of the audio stored under `key` in `format`, the one builder of every audio URL handed out.
 * Stable forever: the bytes behind it never change.
 */
export function audioUrl(env: object, key: string, format: AudioFormat, reach: AudioReach): string {
  const name = reach === "public" ? key : audioCapability(env, key);
  return `${baseUrl(env)}/v1/audio/${name}.${format}`;
}

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

/** The URLs of `key` in each encoding, or nulls when there is no audio yet; `reach` as audioUrl takes it. */
export function audioUrls(env: object, key: string | null, reach: AudioReach): AudioUrls {
  return {
    audio_url: key ? audioUrl(env, key, "mp3", reach) : null,
    opus_url: key ? audioUrl(env, key, "opus", reach) : null,
    wav_url: key ? audioUrl(env, key, "wav", reach) : null,
  };
}

/**
 * The URL that plays job `jobId`'s MP3 while it renders (GET /v1/jobs/{job_id}/stream.mp3), and
 * redirects to the stored file once it is done. The job's random id is the capability.
 */
export function jobStreamUrl(env: object, jobId: string): string {
  return `${baseUrl(env)}/v1/jobs/${encodeURIComponent(jobId)}/stream.mp3`;
}

/** Canonical path of the private feed of feed token `token`. */
export function privateFeedPath(token: string): string {
  return `/v1/podcasts/u/${encodeURIComponent(token)}.xml`;
}

/** The private podcast feed URL; it carries the private feed token, never the account token. */
export function privateFeedUrl(env: object, privateFeedToken: string): string {
  return `${baseUrl(env)}${privateFeedPath(privateFeedToken)}`;
}

/** The web page of a topic (a listener vertical): its newest and trending articles and its feed (docs/web.md "Web front-end"). */
export function topicPageUrl(env: object, slug: string): string {
  return `${webUrl(env)}/topics/${encodeURIComponent(slug)}`;
}

/** Canonical path of the feed of creator tenant `slug` (encoded: it keys the edge cache before the slug is looked up). */
export function creatorFeedPath(slug: string): string {
  return `/v1/podcasts/creator/${encodeURIComponent(slug)}.xml`;
}

/** The public feed URL of creator tenant `slug`. */
export function creatorFeedUrl(env: object, slug: string): string {
  return `${baseUrl(env)}${creatorFeedPath(slug)}`;
}

/** Where the creator claims tenant `slug` (POST /v1/creators/{slug}/claim). */
export function creatorClaimUrl(env: object, slug: string): string {
  return `${baseUrl(env)}/v1/creators/${encodeURIComponent(slug)}/claim`;
}

/** Absolute URLs of one article's transcripts (WebVTT and Podcasting 2.0 JSON) and chapters. */
export interface ItemFileUrls {
  vtt: string;
  json: string;
  chapters: string;
}

/**
 * The transcripts and chapters of article `slug` in a feed: public ones under /v1/podcasts, or with a
 * listener's private feed token, behind it under /v1/podcasts/u/{token}. One address per slug.
 */
export function itemFileUrls(env: object, slug: string, privateFeedToken?: string): ItemFileUrls {
  const prefix = `${baseUrl(env)}/v1/podcasts${privateFeedToken === undefined ? "" : `/u/${encodeURIComponent(privateFeedToken)}`}`;
  const name = encodeURIComponent(slug);
  return { vtt: `${prefix}/transcripts/${name}.vtt`, json: `${prefix}/transcripts/${name}.json`, chapters: `${prefix}/chapters/${name}.json` };
}

/** Generated topic art (GET /v1/topic-art) for `prompt`, `width` by `height` pixels, with `title` written on it. */
export function topicArtUrl(env: object, prompt: string, width: number, height: number, title: string): string {
  const q = new URLSearchParams({ prompt, w: String(width), h: String(height), title });
  return `${baseUrl(env)}/v1/topic-art?${q}`;
}

/** Canonical path of the public feed of a podcast vertical or host persona, e.g. service-tech. */
export function serviceFeedPath(slug: string): string {
  return `/v1/podcasts/service-${slug}.xml`;
}

/** A podcast app's one-tap subscribe link for a feed. */
export interface PodcastApp {
  name: string;
  href: string;
}

/** The feed URL without its scheme, as the apps that take "scheme://host/path" want it. */
function bare(feedUrl: string): string {
  return feedUrl.replace(/^https?:\/\//, "");
}

/**
 * One-tap subscribe links for the main podcast apps, for a public feed and a listener's private one
 * alike (docs/listeners.md "Listener pages"). Each app registers its own URL scheme and takes the feed
 * URL in its own form. Custom schemes on purpose: the operating system hands them straight to the
 * app, so a private feed URL inside goes to the app the listener chose and to no third-party web page
 * (the apps' https "deep link" pages would receive it in their address, and their logs would keep it).
 */
export function podcastApps(feedUrl: string): PodcastApp[] {
  return [
    // iOS and macOS hand podcast:// to Apple Podcasts, which follows the feed by URL.
    { name: "Apple Podcasts", href: `podcast://${bare(feedUrl)}` },
    // Overcast's x-callback-url "add" action takes the whole URL as a query parameter.
    { name: "Overcast", href: `overcast://x-callback-url/add?url=${encodeURIComponent(feedUrl)}` },
    { name: "Pocket Casts", href: `pktc://subscribe/${bare(feedUrl)}` },
    { name: "Castro", href: `castro://subscribe/${bare(feedUrl)}` },
    { name: "AntennaPod", href: `antennapod-subscribe://${bare(feedUrl)}` },
    // Podcast Addict (Android) registers podcastaddict:// and reads the rest as the feed's address.
    { name: "Podcast Addict", href: `podcastaddict://${bare(feedUrl)}` },
    // The generic feed scheme (feed:, after the old "feed URI scheme" draft), which podcast apps and
    // feed readers on every platform register; any app can still take the plain URL from a copy box.
    { name: "Other app", href: `feed://${bare(feedUrl)}` },
  ];
}
