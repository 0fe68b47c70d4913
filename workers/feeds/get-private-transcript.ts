import * as v from "valibot";
import { route } from "../core/route";
import { ofListener } from "../listeners/listener-articles";
import { requireFeedListener } from "./private-feed";
import { FEED_METHODS } from "./schemas";
import { serveTranscript, VTT_CONTENT_TYPE } from "./transcript";

const PrivateTranscriptParams = v.object({
  token: v.pipe(v.string(), v.maxLength(200), v.description("The listener's private feed token.")),
  slug: v.pipe(v.string(), v.maxLength(200), v.description("Slug of the article.")),
});

export const getPrivateTranscript = route({
  method: FEED_METHODS,
  path: "/v1/podcasts/u/:token/transcripts/:slug.vtt",
  tag: "feeds",
  summary: "WebVTT transcript of an episode of a private feed (podcast:transcript of /v1/podcasts/u/{token}.xml)",
  description: "Any article the listener's feed may carry, including the ones they forwarded.",
  auth: "listener_token",
  rateLimit: "read",
  params: PrivateTranscriptParams,
  responses: {
    200: { description: "The transcript", contentType: VTT_CONTENT_TYPE },
    404: { description: "Unknown token, or no article of this feed at this slug" },
  },
  async handle({ env, params }) {
    const listener = await requireFeedListener(env, params.token);
    return serveTranscript(env, params.slug, ofListener(listener), { "Cache-Control": "private, no-cache", "X-Robots-Tag": "noindex" });
  },
});
