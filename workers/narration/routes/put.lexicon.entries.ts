import { route } from "../../core/route";
import { lexiconOf, writeEntries } from "../lexicon-service";
import { LexiconEntriesBody, lexiconResponse, LexiconView } from "../lexicon-schemas";

export const putGlobalLexiconEntries = route({
  method: "PUT",
  path: "/v1/lexicon/entries",
  tag: "narration",
  summary: "Add pronunciation entries to the global lexicon, or replace those of the same grapheme",
  description:
    "The global lexicon applies to every narration; a publisher's own entries win over it. Requires the admin token (x-service-email-token). The next render of a text containing a grapheme applies the entry; audio rendered before keeps its key until re-rendered " +
    "(GET ...lexicon/affected lists it, POST ...lexicon/rerender renders it again). 422 for an entry with neither phoneme nor alias, or past the lexicon's size.",
  auth: "admin",
  rateLimit: "admin",
  body: LexiconEntriesBody,
  responses: { 200: { description: "The whole lexicon after the change", schema: LexiconView } },
  async handle({ env, body }) {
    const scope = null;
    await writeEntries(env, scope, body.entries);
    return lexiconResponse(scope, await lexiconOf(env, scope), "json");
  },
});
