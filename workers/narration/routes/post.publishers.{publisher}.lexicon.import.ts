import { lexiconOf } from "../lexicon-service";
import { importPls, LexiconImportBody, LexiconImportQuery, lexiconResponse, LexiconView, PLS_IMPORT_DESCRIPTION, PLS_RAW_BODIES } from "../lexicon-schemas";
import { publisherLexiconRoute } from "../publisher-lexicon-route";

export const importPublisherLexicon = publisherLexiconRoute({
  method: "POST",
  path: "import",
  summary: "Import a W3C PLS document into a publisher's lexicon",
  description: PLS_IMPORT_DESCRIPTION,
  query: LexiconImportQuery,
  body: LexiconImportBody,
  rawBodies: PLS_RAW_BODIES,
  responses: { 200: { description: "The whole lexicon after the import", schema: LexiconView } },
  async handle({ env, scope, query, body }) {
    await importPls(env, scope, body, query.replace);
    return lexiconResponse(scope, await lexiconOf(env, scope), "json");
  },
});
