import { ApiError } from "../core/errors";

/** How long a podcast app should wait after a 503 from a feed (docs/rules.md "Rules" 4: feed build failure). */
const FEED_RETRY_AFTER_SECONDS = 60;

/** The 503 of a feed that cannot be built or looked up right now. */
export function feedUnavailable(): ApiError {
  return new ApiError("unavailable", "the feed cannot be built right now; try again later", {
    "Retry-After": String(FEED_RETRY_AFTER_SECONDS),
  });
}
