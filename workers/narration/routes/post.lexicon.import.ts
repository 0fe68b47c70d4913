import { route } from "../../core/route";
import { lexiconOf } from "../lexicon-service";
import { importPls, LexiconImportBody, LexiconImportQuery, lexiconResponse, LexiconView, PLS_IMPORT_DESCRIPTION, PLS_RAW_BODIES } from "../lexicon-schemas";

export const importGlobalLexicon = route({
  method: "POST",
  path: "/v1/lexicon/import",
  tag: "narration",
  summary: "Import a W3C PLS document into the global lexicon",
  description: `The global lexicon applies to every narration; a publisher's own entries win over it. Requires the admin token (x-service-email-token). ${PLS_IMPORT_DESCRIPTION}`,
  auth: "admin",
  rateLimit: "admin",
  query: LexiconImportQuery,
  body: LexiconImportBody,
  rawBodies: PLS_RAW_BODIES,
  responses: { 200: { description: "The whole lexicon after the import", schema: LexiconView } },
  async handle({ env, query, body }) {
    const scope = null;
    await importPls(env, scope, body, query.replace);
    return lexiconResponse(scope, await lexiconOf(env, scope), "json");
  },
});
