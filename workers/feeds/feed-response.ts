import { ApiError } from "../core/errors";

/**
 * Feed responses; conditional requests are workers/core/conditional.ts. Podcast apps and
 * directories poll feeds every few minutes; an unchanged feed costs them a 304 with no body.
 */

export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";
const RETRY_AFTER_SECONDS = 60;

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

/** The 503 of a feed that cannot be built and has no earlier body to fall back on. */
export function unavailable(): ApiError {
  return new ApiError("unavailable", "the feed cannot be built right now; try again later", {
    "Retry-After": String(RETRY_AFTER_SECONDS),
  });
}
