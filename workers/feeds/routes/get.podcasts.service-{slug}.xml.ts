import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { inLanguage, serviceFeed } from "../catalog";
import { servePublicFeed } from "../public-feed";
import { FEED_METHODS, FeedLanguageQuery, FeedSlugParams, feedResponses } from "../schemas";

export const getTopicFeed = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/service-:slug.xml",
  tag: "feeds",
  summary: "A host persona's or a podcast vertical's feed",
  description:
    "Hosts: tech, markets, news, health, sports, comedy (articles whose host is the slug). Verticals: tech, health, " +
    "young_moms (alias parenting), science, finance, news (articles of that vertical); a slug that is both carries both. " +
    "trending is the all-trending feed. Public articles with ready audio, newest first. With ?language=de, only the items narrated in that language, the channel's <language> de.",
  auth: "none",
  rateLimit: "feeds",
  params: FeedSlugParams,
  query: FeedLanguageQuery,
  responses: feedResponses({ 404: { description: "Unknown host or vertical" } }),
  handle(input) {
    const topic = serviceFeed(input.params.slug);
    if (!topic) throw new ApiError("not_found", `no feed for ${input.params.slug}`);
    const feed = input.query.language ? inLanguage(topic, input.query.language) : topic;
    return servePublicFeed(input, feed, () => feed);
  },
});
