import { route } from "../../core/route";
import { lexiconOf } from "../lexicon-service";
import { importPls, LexiconImportBody, lexiconResponse, LexiconView, PublisherLexiconParams, publisherScope } from "../lexicon-schemas";

export const importPublisherLexicon = route({
  method: "POST",
  path: "/v1/publishers/:publisher/lexicon/import",
  tag: "narration",
  summary: "Import a W3C PLS document into a publisher's lexicon",
  description:
    "The lexicon of one publisher's articles, over the global one. Requires that publisher's API key (Authorization: Bearer npk_...) or the operator's API key; another publisher's lexicon is a 404. Each <lexeme> gives one entry per <grapheme>, with its first <phoneme> (IPA only; another alphabet is a 422) and its first <alias>. " +
    "replace: true makes the document the whole lexicon. A document that is not a PLS lexicon, or an entry that fails the entry checks, is a 422 and changes nothing.",
  auth: "api_key",
  rateLimit: "admin",
  params: PublisherLexiconParams,
  body: LexiconImportBody,
  responses: { 200: { description: "The whole lexicon after the import", schema: LexiconView } },
  async handle({ env, caller, params, body }) {
    const scope = publisherScope(caller, params.publisher);
    await importPls(env, scope, body);
    return lexiconResponse(scope, await lexiconOf(env, scope), "json");
  },
});
