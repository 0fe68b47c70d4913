import { route } from "../../core/route";
import { AffectedView, affectedResponse, PublisherLexiconParams, publisherScope } from "../lexicon-schemas";

export const getPublisherLexiconAffected = route({
  method: "GET",
  path: "/v1/publishers/:publisher/lexicon/affected",
  tag: "narration",
  summary: "A publisher's narrated articles whose audio a change of its lexicon touches",
  description:
    "The lexicon of one publisher's articles, over the global one. Requires that publisher's API key (Authorization: Bearer npk_...) or the operator's API key; another publisher's lexicon is a 404. An article is listed when the entries that apply to its text, for the engine that spoke its audio, differ from those its render applied: " +
    "exactly the narrations a change re-renders. POST ...lexicon/rerender queues them.",
  auth: "api_key",
  rateLimit: "admin",
  params: PublisherLexiconParams,
  responses: { 200: { description: "The affected articles", schema: AffectedView } },
  async handle({ env, caller, params }) {
    const scope = publisherScope(caller, params.publisher);
    return affectedResponse(env, scope);
  },
});
