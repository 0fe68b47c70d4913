import { route } from "../../core/route";
import { lexiconOf } from "../lexicon-service";
import { importPls, LexiconImportBody, lexiconResponse, LexiconView } from "../lexicon-schemas";

export const importGlobalLexicon = route({
  method: "POST",
  path: "/v1/lexicon/import",
  tag: "narration",
  summary: "Import a W3C PLS document into the global lexicon",
  description:
    "The global lexicon applies to every narration; a publisher's own entries win over it. Requires the admin token (x-service-email-token). Each <lexeme> gives one entry per <grapheme>, with its first <phoneme> (IPA only; another alphabet is a 422) and its first <alias>. " +
    "replace: true makes the document the whole lexicon. A document that is not a PLS lexicon, or an entry that fails the entry checks, is a 422 and changes nothing.",
  auth: "admin",
  rateLimit: "admin",
  body: LexiconImportBody,
  responses: { 200: { description: "The whole lexicon after the import", schema: LexiconView } },
  async handle({ env, body }) {
    const scope = null;
    await importPls(env, scope, body);
    return lexiconResponse(scope, await lexiconOf(env, scope), "json");
  },
});
