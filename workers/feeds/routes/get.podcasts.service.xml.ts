import { route } from "../../core/route";
import { inLanguage, TRENDING_FEED } from "../catalog";
import { servePublicFeed } from "../public-feed";
import { FEED_METHODS, FeedLanguageQuery, feedResponses } from "../schemas";

export const getServiceFeed = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/service.xml",
  tag: "feeds",
  summary: "The public all-trending podcast feed (stable URL)",
  description:
    "The top of the trending ranking: public articles with ready audio. With ?language=de, the newest public items narrated in that language, the channel's <language> de.",
  auth: "none",
  rateLimit: "feeds",
  query: FeedLanguageQuery,
  responses: feedResponses(),
  handle(input) {
    const { language } = input.query;
    const feed = language ? inLanguage(TRENDING_FEED, language) : TRENDING_FEED;
    return servePublicFeed(input, feed, () => feed);
  },
});
