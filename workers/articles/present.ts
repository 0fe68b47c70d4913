import * as v from "valibot";
import { named } from "../core/schema-registry";
import type { ArticleRow } from "../db";
import { audioReachOf, audioUrl } from "../kernel/public-urls";
import { isNarratedFor, isShownInFull } from "../kernel/visibility";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Fields every listing and record carries, full or stub. */
const listingEntries = {
  slug: v.pipe(v.string(), v.description("Identifies the article in paths.")),
  title: v.string(),
  publisher: v.string(),
  vertical: v.pipe(v.string(), v.description("Topic slug.")),
  url: v.pipe(v.nullable(v.string()), v.description("The original article on the publisher's site.")),
  visibility: v.picklist(["public", "publisher_only", "listener_private"]),
  stub: v.pipe(v.boolean(), v.description("True when only a thin stub is shown: summary and body are withheld.")),
  noindex: v.pipe(v.boolean(), v.description("True for stubs (publisher_only, listener_private): not for search engines.")),
  audio_ready: v.pipe(v.boolean(), v.description("Narration of the current text is done.")),
  audio_url: v.pipe(
    v.nullable(v.string()),
    v.description("MP3 of the current text; null until a render is done, and always on a stub: its audio reaches only its publisher and the operator."),
  ),
  listen_seconds: v.nullable(v.number()),
  created_at: v.pipe(v.string(), v.description("When the archive got the article (ISO 8601).")),
  published_at: v.nullable(v.string()),
};

export const ArticleSummary = named("ArticleSummary", v.object({ ...listingEntries, summary: v.pipe(v.string(), v.description("Empty on stubs.")) }));

export const ArticleRecord = named(
  "ArticleRecord",
  v.object({
    ...listingEntries,
    summary: v.string(),
    body_text: v.pipe(v.nullable(v.string()), v.description("The full text; null on a publisher_only stub.")),
    host: v.nullable(v.string()),
    curated: v.boolean(),
    declassified: v.boolean(),
  }),
);

type Listed = Pick<
  ArticleRow,
  "slug" | "title" | "publisher" | "vertical" | "url" | "visibility" | "summary" | "audioKey" | "listenSeconds" | "createdAt" | "publishedAt"
> &
  Partial<Pick<ArticleRow, "ownerListenerId">>;

/**
 * An article as listings show it to the viewer `viewerId` (null: anonymous). Summary and audio only
 * where the viewer may have its text and narration (kernel/visibility.ts): a listener's own
 * listener_private article is theirs to hear, and stays noindex; a publisher_only stub is no one's here.
 */
export function presentSummary(env: object, a: Listed, viewerId: number | null): v.InferOutput<typeof ArticleSummary> {
  const full = isNarratedFor(a, viewerId);
  return {
    slug: a.slug,
    title: a.title,
    publisher: a.publisher,
    vertical: a.vertical,
    url: a.url,
    visibility: a.visibility,
    stub: !full,
    noindex: !isShownInFull(a),
    summary: full ? a.summary : "",
    audio_ready: a.audioKey !== null,
    audio_url: full && a.audioKey ? audioUrl(env, a.audioKey, "mp3", audioReachOf(a)) : null,
    listen_seconds: a.listenSeconds,
    created_at: a.createdAt.toISOString(),
    published_at: iso(a.publishedAt),
  };
}

/** The full record of GET /v1/articles/{slug} for `viewerId`: body_text withheld where the summary is. */
export function presentRecord(env: object, a: ArticleRow, viewerId: number | null): v.InferOutput<typeof ArticleRecord> {
  const summary = presentSummary(env, a, viewerId);
  return {
    ...summary,
    body_text: summary.stub ? null : a.bodyText,
    host: a.host,
    curated: a.curated,
    declassified: a.declassified,
  };
}

/** The header that keeps stubs out of search engines (noindex, per docs/rules.md "Rules" 2). */
export const NOINDEX = { "X-Robots-Tag": "noindex" } as const;
