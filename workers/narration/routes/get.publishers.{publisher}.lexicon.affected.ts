import { AffectedView, affectedResponse } from "../lexicon-schemas";
import { publisherLexiconRoute } from "../publisher-lexicon-route";

export const getPublisherLexiconAffected = publisherLexiconRoute({
  method: "GET",
  path: "affected",
  summary: "A publisher's narrated articles whose audio a change of its lexicon touches",
  description:
    "An article is listed when the entries that apply to its text, for the engine that spoke its audio, differ from those its render applied: " +
    "exactly the narrations a change re-renders. POST ...lexicon/rerender queues them.",
  responses: { 200: { description: "The affected articles", schema: AffectedView } },
  handle: ({ env, scope }) => affectedResponse(env, scope),
});
