import * as v from "valibot";
import { route } from "../../core/route";
import { PAID_TOOLS_OFF, toolResponse, toolResponses } from "../rest";
import { get_audio_url } from "../tools";
import { VoiceParam } from "../tools/get_audio_url";
import { requireKnownVoice } from "../../narration/jobs-service";

export const getAgentArticleAudio = route({
  method: "GET",
  path: "/v1/agent/articles/:slug/audio",
  tag: "agents",
  operationId: "get_audio_url",
  summary: "get_audio_url: a playable URL of the article's narration, rendered on demand",
  description: get_audio_url.description,
  auth: "agent",
  params: get_audio_url.input,
  query: v.object({ voice: VoiceParam }),
  responses: {
    ...toolResponses(get_audio_url),
    404: { description: "No such article, another listener's private one, or a publisher_only stub" },
    429: {
      description: "The agent's per-minute budget is spent; or, with a token, the listener's render budget or the address's hourly renders (render-now's)",
      headers: { "Retry-After": "seconds" },
    },
    503: {
      description: `The render failed (Retry-After; a paid call's payer is owed a credit for the same call, docs/agents/payments.md); or ${PAID_TOOLS_OFF}`,
      headers: { "Retry-After": "seconds" },
    },
  },
  async handle({ params, query, grant, request, env, table, requestId }) {
    // Before any quote, payment or job: a voice nobody offers is a 422 (issue 40 item 4).
    await requireKnownVoice(env, query.voice, ["query", "voice"]);
    return toolResponse(get_audio_url, { slug: params.slug, voice: query.voice }, { grant, request, env, table, requestId });
  },
});
