import { shownInFull } from "../../kernel/visibility";
import { route } from "../../core/route";
import { chaptersResponses, FEED_METHODS, TranscriptParams } from "../schemas";
import { serveChapters } from "../transcript";

export const getChapters = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/chapters/:slug.json",
  tag: "feeds",
  summary: "JSON chapters of a public article's narration (podcast:chapters of the public feeds)",
  description:
    "A chapter at each heading of the article, or at groups of its paragraphs when it has none; each starts where its paragraph starts in the audio. Only articles shown in full to anyone; stubs and private articles answer 404.",
  auth: "none",
  rateLimit: "feeds",
  params: TranscriptParams,
  responses: chaptersResponses("No public article with ready audio at this slug"),
  handle: ({ env, params }) => serveChapters(env, params.slug, shownInFull, { "Cache-Control": "public, max-age=3600" }),
});
