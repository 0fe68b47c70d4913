import { shownInFull } from "../../kernel/visibility";
import { route } from "../../core/route";
import { FEED_METHODS, TranscriptParams, transcriptResponses } from "../schemas";
import { serveTranscript } from "../transcript";

export const getTranscript = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/transcripts/:slug.vtt",
  tag: "feeds",
  summary: "WebVTT transcript of a public article's narration (podcast:transcript of the public feeds)",
  description: "Only articles shown in full to anyone; stubs and private articles answer 404.",
  auth: "none",
  rateLimit: "feeds",
  params: TranscriptParams,
  responses: transcriptResponses("No public article with ready audio at this slug"),
  handle: ({ env, params }) => serveTranscript(env, params.slug, shownInFull, { "Cache-Control": "public, max-age=3600" }),
});
