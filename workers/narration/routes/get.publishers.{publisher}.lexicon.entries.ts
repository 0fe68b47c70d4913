import { lexiconOf } from "../lexicon-service";
import { lexiconResponse, LexiconQuery, LexiconView } from "../lexicon-schemas";
import { PLS_CONTENT_TYPE } from "../pls";
import { publisherLexiconRoute } from "../publisher-lexicon-route";

export const getPublisherLexicon = publisherLexiconRoute({
  method: "GET",
  path: "entries",
  summary: "A publisher's pronunciation lexicon, as JSON or as a W3C PLS document",
  description: `With format=pls the answer is the lexicon as a PLS 1.0 document (${PLS_CONTENT_TYPE}, alphabet ipa), ready to import elsewhere.`,
  query: LexiconQuery,
  responses: { 200: { description: "The lexicon (JSON; a PLS document with format=pls)", schema: LexiconView } },
  async handle({ env, scope, query }) {
    return lexiconResponse(scope, await lexiconOf(env, scope), query.format);
  },
});
