
/**
 * Feed responses; conditional requests are workers/core/conditional.ts. Podcast apps and
 * directories poll feeds every few minutes; an unchanged feed costs them a 304 with no body.
 */

export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";
/** A feed body with its validators. */
export interface FeedBody {
  xml: string;
  etag: string;
  lastModified: Date;
}

/** The 200 response for `body` with `headers` (Cache-Control and friends). */
export function feedResponse(body: FeedBody, headers: Record<string, string>): Response {
  return new Response(body.xml, {
    headers: {
      "Content-Type": RSS_CONTENT_TYPE,
      ETag: body.etag,
      "Last-Modified": body.lastModified.toUTCString(),
      ...headers,
    },
  });
}

