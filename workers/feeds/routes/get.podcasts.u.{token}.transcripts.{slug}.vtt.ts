import { route } from "../../core/route";
import { servePrivateItemFile } from "../private-feed";
import { FEED_METHODS, PrivateTranscriptParams, transcriptResponses } from "../schemas";
import { serveTranscript } from "../transcript";

export const getPrivateTranscript = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/u/:token/transcripts/:slug.vtt",
  tag: "feeds",
  summary: "WebVTT transcript of an episode of a private feed (podcast:transcript of /v1/podcasts/u/{token}.xml)",
  description:
    "Any episode the listener's feed carries, including the articles they forwarded; a publisher_only stub or another listener's article answers 404.",
  auth: "feed_token",
  rateLimit: "feeds",
  params: PrivateTranscriptParams,
  responses: transcriptResponses("Unknown token, or no article of this feed at this slug"),
  handle: ({ listener, env, params }) => servePrivateItemFile(serveTranscript, env, listener, params.slug),
});
