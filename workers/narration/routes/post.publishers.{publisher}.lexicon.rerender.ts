import { rerenderAffected } from "../lexicon-service";
import { RerenderView } from "../lexicon-schemas";
import { publisherLexiconRoute } from "../publisher-lexicon-route";

export const rerenderPublisherLexicon = publisherLexiconRoute({
  method: "POST",
  path: "rerender",
  summary: "Render again a publisher's narrated articles whose audio a change of its lexicon touches",
  description:
    "Queues a render (in the article's own voice) of each article GET ...lexicon/affected lists that is not already rendering, " +
    "a bounded number a request; `remaining` says how many are left for the next one. Articles no entry touches keep their audio.",
  responses: { 202: { description: "The queued render jobs", schema: RerenderView } },
  async handle({ env, scope, requestId }) {
    const result = await rerenderAffected(env, scope, requestId);
    return Response.json(result, { status: 202, headers: { "Cache-Control": "no-store" } });
  },
});
