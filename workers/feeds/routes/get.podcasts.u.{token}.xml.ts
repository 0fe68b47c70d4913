import { route } from "../../core/route";
import { servePrivateFeed } from "../private-feed";
import { FEED_METHODS, FeedTokenParams, feedResponses } from "../schemas";

export const getPrivateFeed = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/u/:token.xml",
  tag: "feeds",
  summary: "A listener's private podcast feed; the token is the credential",
  description:
    "The listener's verticals (all when none is chosen) and the articles they forwarded, with ready audio, newest first. " +
    "podcast:locked is yes; never shared-cached (Cache-Control: private, no-cache).",
  auth: "feed_token",
  rateLimit: "feeds",
  params: FeedTokenParams,
  responses: feedResponses({ 404: { description: "Unknown, rotated-away or deleted token" } }),
  handle: ({ listener, request, env, params }) => servePrivateFeed(request, env, listener, params.token),
});
