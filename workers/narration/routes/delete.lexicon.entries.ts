import { route } from "../../core/route";
import { deleteEntries } from "../lexicon-service";
import { DeletedView, GraphemeQuery } from "../lexicon-schemas";

export const deleteGlobalLexiconEntry = route({
  method: "DELETE",
  path: "/v1/lexicon/entries",
  tag: "narration",
  summary: "Remove the pronunciation entry of a grapheme from the global lexicon",
  description:
    "The global lexicon applies to every narration; a publisher's own entries win over it. Requires the admin token (x-service-email-token). Narrations that applied it are then listed by GET ...lexicon/affected until rendered again.",
  auth: "admin",
  rateLimit: "admin",
  query: GraphemeQuery,
  responses: { 200: { description: "How many entries were removed", schema: DeletedView } },
  async handle({ env, query }) {
    const deleted = await deleteEntries(env, null, [query.grapheme]);
    return Response.json({ deleted }, { headers: { "Cache-Control": "no-store" } });
  },
});
