import { route } from "../../core/route";
import { servePrivateItemFile } from "../private-feed";
import { chaptersResponses, FEED_METHODS, PrivateTranscriptParams } from "../schemas";
import { serveChapters } from "../transcript";

export const getPrivateChapters = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/u/:token/chapters/:slug.json",
  tag: "feeds",
  summary: "JSON chapters of an episode of a private feed (podcast:chapters of /v1/podcasts/u/{token}.xml)",
  description:
    "Any episode the listener's feed carries, including the articles they forwarded; a publisher_only stub or another listener's article answers 404.",
  auth: "feed_token",
  rateLimit: "feeds",
  params: PrivateTranscriptParams,
  responses: chaptersResponses("Unknown token, or no article of this feed at this slug"),
  handle: ({ listener, env, params }) => servePrivateItemFile(serveChapters, env, listener, params.slug),
});
