import { shownInFull } from "../../kernel/visibility";
import { route } from "../../core/route";
import { FEED_METHODS, TranscriptParams, transcriptResponses } from "../schemas";
import { serveJsonTranscript } from "../transcript";

export const getJsonTranscript = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/transcripts/:slug.json",
  tag: "feeds",
  summary: "Podcasting 2.0 JSON transcript of a public article's narration, word by word (podcast:transcript of the public feeds)",
  description: "One segment per word, timed as the render measured it. Only articles shown in full to anyone; stubs and private articles answer 404.",
  auth: "none",
  rateLimit: "feeds",
  params: TranscriptParams,
  responses: transcriptResponses("No public article with ready audio at this slug", "json"),
  handle: ({ env, params }) => serveJsonTranscript(env, params.slug, shownInFull, { "Cache-Control": "public, max-age=3600" }),
});
