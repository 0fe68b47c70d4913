import { route } from "../../core/route";
import { lexiconOf } from "../lexicon-service";
import { lexiconResponse, LexiconQuery, LexiconView } from "../lexicon-schemas";
import { PLS_CONTENT_TYPE } from "../pls";

export const getGlobalLexicon = route({
  method: "GET",
  path: "/v1/lexicon/entries",
  tag: "narration",
  summary: "The global pronunciation lexicon, as JSON or as a W3C PLS document",
  description: `The global lexicon applies to every narration; a publisher's own entries win over it. Requires the admin token (x-service-email-token). With format=pls the answer is the lexicon as a PLS 1.0 document (${PLS_CONTENT_TYPE}, alphabet ipa), ready to import elsewhere.`,
  auth: "admin",
  rateLimit: "admin",
  query: LexiconQuery,
  responses: { 200: { description: "The lexicon (JSON; a PLS document with format=pls)", schema: LexiconView } },
  async handle({ env, query }) {
    const scope = null;
    return lexiconResponse(scope, await lexiconOf(env, scope), query.format);
  },
});
