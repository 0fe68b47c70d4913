import { route } from "../../core/route";
import { lexiconOf } from "../lexicon-service";
import { lexiconResponse, LexiconQuery, LexiconView, PublisherLexiconParams, publisherScope } from "../lexicon-schemas";
import { PLS_CONTENT_TYPE } from "../pls";

export const getPublisherLexicon = route({
  method: "GET",
  path: "/v1/publishers/:publisher/lexicon/entries",
  tag: "narration",
  summary: "A publisher's pronunciation lexicon, as JSON or as a W3C PLS document",
  description: `The lexicon of one publisher's articles, over the global one. Requires that publisher's API key (Authorization: Bearer npk_...) or the operator's API key; another publisher's lexicon is a 404. With format=pls the answer is the lexicon as a PLS 1.0 document (${PLS_CONTENT_TYPE}, alphabet ipa), ready to import elsewhere.`,
  auth: "api_key",
  rateLimit: "admin",
  params: PublisherLexiconParams,
  query: LexiconQuery,
  responses: { 200: { description: "The lexicon (JSON; a PLS document with format=pls)", schema: LexiconView } },
  async handle({ env, caller, params, query }) {
    const scope = publisherScope(caller, params.publisher);
    return lexiconResponse(scope, await lexiconOf(env, scope), query.format);
  },
});
