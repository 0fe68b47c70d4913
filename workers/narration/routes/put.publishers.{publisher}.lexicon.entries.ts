import { lexiconOf, writeEntries } from "../lexicon-service";
import { LexiconEntriesBody, lexiconResponse, LexiconView } from "../lexicon-schemas";
import { publisherLexiconRoute } from "../publisher-lexicon-route";

export const putPublisherLexiconEntries = publisherLexiconRoute({
  method: "PUT",
  path: "entries",
  summary: "Add pronunciation entries to a publisher's lexicon, or replace those of the same grapheme",
  description:
    "The next render of a text containing a grapheme applies the entry; audio rendered before keeps its key until re-rendered " +
    "(GET ...lexicon/affected lists it, POST ...lexicon/rerender renders it again). 422 for an entry with neither phoneme nor alias, or past the lexicon's size.",
  body: LexiconEntriesBody,
  responses: { 200: { description: "The whole lexicon after the change", schema: LexiconView } },
  async handle({ env, scope, body }) {
    await writeEntries(env, scope, body.entries);
    return lexiconResponse(scope, await lexiconOf(env, scope), "json");
  },
});
