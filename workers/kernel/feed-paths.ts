import { ApiError } from "../core/errors";
/**
 * Feed paths needed outside the feed builders. No imports: the listener account module builds
 * feed URLs with these, and the feed builders depend on the listener modules.
 */

/** Canonical path of the private feed of feed token `token`. */
export function privateFeedPath(token: string): string {
  return `/v1/podcasts/u/${encodeURIComponent(token)}.xml`;
}

/** Canonical path of the public feed of a podcast vertical or host persona, e.g. service-tech. */
export function serviceFeedPath(slug: string): string {
  return `/v1/podcasts/service-${slug}.xml`;
}

/** How long a podcast app should wait after a 503 from a feed (README "Rules" 4: feed build failure). */
const FEED_RETRY_AFTER_SECONDS = 60;

/** The 503 of a feed that cannot be built or looked up right now. */
export function feedUnavailable(): ApiError {
  return new ApiError("unavailable", "the feed cannot be built right now; try again later", {
    "Retry-After": String(FEED_RETRY_AFTER_SECONDS),
  });
}
