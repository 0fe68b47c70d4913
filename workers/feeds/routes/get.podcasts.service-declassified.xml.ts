import { route } from "../../core/route";
import { DECLASSIFIED_FEED } from "../catalog";
import { servePublicFeed } from "../public-feed";
import { FEED_METHODS, feedResponses } from "../schemas";

/** Registered before the service-{slug} wildcard, which would otherwise take `declassified` as a slug. */
export const getDeclassifiedFeed = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/service-declassified.xml",
  tag: "feeds",
  summary: "The declassified-cases podcast feed",
  description: "Public articles flagged declassified, with ready audio, newest first.",
  auth: "none",
  rateLimit: "feeds",
  responses: feedResponses(),
  handle: (input) => servePublicFeed(input, DECLASSIFIED_FEED, () => DECLASSIFIED_FEED),
});
