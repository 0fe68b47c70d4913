import { route } from "../../core/route";
import { rerenderAffected } from "../lexicon-service";
import { RerenderView, PublisherLexiconParams, publisherScope } from "../lexicon-schemas";

export const rerenderPublisherLexicon = route({
  method: "POST",
  path: "/v1/publishers/:publisher/lexicon/rerender",
  tag: "narration",
  summary: "Render again a publisher's narrated articles whose audio a change of its lexicon touches",
  description:
    "The lexicon of one publisher's articles, over the global one. Requires that publisher's API key (Authorization: Bearer npk_...) or the operator's API key; another publisher's lexicon is a 404. Queues a render (in the article's own voice) of each article GET ...lexicon/affected lists that is not already rendering, " +
    "a bounded number a request; `remaining` says how many are left for the next one. Articles no entry touches keep their audio.",
  auth: "api_key",
  rateLimit: "admin",
  params: PublisherLexiconParams,
  responses: { 202: { description: "The queued render jobs", schema: RerenderView } },
  async handle({ env, caller, params }) {
    const result = await rerenderAffected(env, publisherScope(caller, params.publisher));
    return Response.json(result, { status: 202, headers: { "Cache-Control": "no-store" } });
  },
});
