import { deleteEntries } from "../lexicon-service";
import { DeletedView, GraphemeQuery } from "../lexicon-schemas";
import { publisherLexiconRoute } from "../publisher-lexicon-route";

export const deletePublisherLexiconEntry = publisherLexiconRoute({
  method: "DELETE",
  path: "entries",
  summary: "Remove the pronunciation entry of a grapheme from a publisher's lexicon",
  description: "Narrations that applied it are then listed by GET ...lexicon/affected until rendered again.",
  query: GraphemeQuery,
  responses: { 200: { description: "How many entries were removed", schema: DeletedView } },
  async handle({ env, scope, query }) {
    const deleted = await deleteEntries(env, scope, [query.grapheme]);
    return Response.json({ deleted }, { headers: { "Cache-Control": "no-store" } });
  },
});
