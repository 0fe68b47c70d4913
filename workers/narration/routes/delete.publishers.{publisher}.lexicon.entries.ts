import { route } from "../../core/route";
import { deleteEntries } from "../lexicon-service";
import { DeletedView, GraphemeQuery, PublisherLexiconParams, publisherScope } from "../lexicon-schemas";

export const deletePublisherLexiconEntry = route({
  method: "DELETE",
  path: "/v1/publishers/:publisher/lexicon/entries",
  tag: "narration",
  summary: "Remove the pronunciation entry of a grapheme from a publisher's lexicon",
  description: "The lexicon of one publisher's articles, over the global one. Requires that publisher's API key (Authorization: Bearer npk_...) or the operator's API key; another publisher's lexicon is a 404. Narrations that applied it are then listed by GET ...lexicon/affected until rendered again.",
  auth: "api_key",
  rateLimit: "admin",
  params: PublisherLexiconParams,
  query: GraphemeQuery,
  responses: { 200: { description: "How many entries were removed", schema: DeletedView } },
  async handle({ env, caller, params, query }) {
    const deleted = await deleteEntries(env, publisherScope(caller, params.publisher), [query.grapheme]);
    return Response.json({ deleted }, { headers: { "Cache-Control": "no-store" } });
  },
});
