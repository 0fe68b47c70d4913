import { route } from "../../core/route";
import { servePrivateFeed } from "../private-feed";
import { FEED_METHODS, FeedTokenParams, feedResponses } from "../schemas";

/** Registered after every service*.xml path, which it would otherwise shadow. */
export const getTokenFeed = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/:token.xml",
  tag: "feeds",
  summary: "The private feed at the path the agent examples give; same feed as /v1/podcasts/u/{token}.xml",
  auth: "feed_token",
  rateLimit: "feeds",
  params: FeedTokenParams,
  responses: feedResponses({ 404: { description: "Unknown, rotated-away or deleted token" } }),
  handle: ({ listener, request, env, params }) => servePrivateFeed(request, env, listener, params.token),
});
