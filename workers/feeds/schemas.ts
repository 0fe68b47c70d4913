import * as v from "valibot";
import { LanguageField } from "../kernel/language";
import type { ResponseDoc } from "../core/route";
import { RSS_CONTENT_TYPE } from "./feed-response";
import { CHAPTERS_CONTENT_TYPE, JSON_TRANSCRIPT_CONTENT_TYPE, VTT_CONTENT_TYPE } from "./transcript";

/** Every feed path answers GET and HEAD (docs/rules.md "Rules" 4; part 7: directory probes use HEAD). */
export const FEED_METHODS = ["GET", "HEAD"] as const;

export const FeedSlugParams = v.object({
  slug: v.pipe(v.string(), v.maxLength(80), v.description("Host persona, podcast vertical or alias (e.g. tech, markets, parenting).")),
});

export const CreatorSlugParams = v.object({
  tenant_slug: v.pipe(v.string(), v.maxLength(80), v.description("Slug of the creator tenant.")),
});

const FeedToken = v.pipe(v.string(), v.maxLength(200), v.description("The listener's private feed token, as in the feed URL; it is the credential."));
const ArticleSlug = v.pipe(v.string(), v.maxLength(200), v.description("Slug of the article."));

export const FeedTokenParams = v.object({ token: FeedToken });
export const TranscriptParams = v.object({ slug: ArticleSlug });
export const PrivateTranscriptParams = v.object({ token: FeedToken, slug: ArticleSlug });

/** The documented responses of a feed path. */
export function feedResponses(extra: Record<number, ResponseDoc> = {}): Record<number, ResponseDoc> {
  return {
    200: {
      description: "The RSS 2.0 feed (iTunes and Podcasting 2.0 namespaces)",
      contentType: RSS_CONTENT_TYPE,
      headers: { ETag: "strong validator of the body", "Last-Modified": "when the body last changed", "Cache-Control": "caching policy" },
    },
    304: { description: "Not modified (If-None-Match or If-Modified-Since matched)" },
    503: { description: "The feed cannot be built and no earlier body is kept", headers: { "Retry-After": "seconds" } },
    ...extra,
  };
}

/** The documented responses of a transcript path, WebVTT or Podcasting 2.0 JSON. */
export function transcriptResponses(notFound: string, format: "vtt" | "json" = "vtt"): Record<number, ResponseDoc> {
  const ok =
    format === "vtt"
      ? { description: "The WebVTT transcript", contentType: VTT_CONTENT_TYPE }
      : {
          description: 'The Podcasting 2.0 JSON transcript: {"version":"1.0.0","segments":[{"startTime","endTime","body"}]}, one segment per word',
          contentType: JSON_TRANSCRIPT_CONTENT_TYPE,
        };
  return { 200: ok, 404: { description: notFound } };
}

/** The documented responses of a chapters path. */
export function chaptersResponses(notFound: string): Record<number, ResponseDoc> {
  return {
    200: { description: 'Podcasting 2.0 JSON chapters: {"version":"1.2.0","chapters":[{"startTime","title"}]}', contentType: CHAPTERS_CONTENT_TYPE },
    404: { description: notFound },
  };
}

/** `?language=` of a public feed: that language's items only, its channel <language> the tag (catalog.ts inLanguage). */
export const FeedLanguageQuery = v.object({ language: v.optional(LanguageField) });
