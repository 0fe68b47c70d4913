import { route } from "../../core/route";
import { TRENDING_FEED } from "../catalog";
import { servePublicFeed } from "../public-feed";
import { FEED_METHODS, feedResponses } from "../schemas";

export const getServiceFeed = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/service.xml",
  tag: "feeds",
  summary: "The public all-trending podcast feed (stable URL)",
  description: "The top of the trending ranking: public articles with ready audio.",
  auth: "none",
  rateLimit: "feeds",
  responses: feedResponses(),
  handle: (input) => servePublicFeed(input, TRENDING_FEED, () => TRENDING_FEED),
});
