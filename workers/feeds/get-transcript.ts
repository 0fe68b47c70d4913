import * as v from "valibot";
import { shownInFull } from "../articles/visibility";
import { route } from "../core/route";
import { FEED_METHODS } from "./schemas";
import { serveTranscript, VTT_CONTENT_TYPE } from "./transcript";

const TranscriptParams = v.object({
  slug: v.pipe(v.string(), v.maxLength(200), v.description("Slug of the article.")),
});

export const getTranscript = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/transcripts/:slug.vtt",
  tag: "feeds",
  summary: "WebVTT transcript of a public article's narration (podcast:transcript of the public feeds)",
  description: "Only articles shown in full to anyone; stubs and private articles answer 404.",
  auth: "none",
  rateLimit: "read",
  params: TranscriptParams,
  responses: {
    200: { description: "The transcript", contentType: VTT_CONTENT_TYPE },
    404: { description: "No public article with ready audio at this slug" },
  },
  handle: ({ env, params }) => serveTranscript(env, params.slug, shownInFull, { "Cache-Control": "public, max-age=3600" }),
});
