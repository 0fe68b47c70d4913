import { route } from "../../core/route";
import { lexiconOf, writeEntries } from "../lexicon-service";
import { LexiconEntriesBody, lexiconResponse, LexiconView, PublisherLexiconParams, publisherScope } from "../lexicon-schemas";

export const putPublisherLexiconEntries = route({
  method: "PUT",
  path: "/v1/publishers/:publisher/lexicon/entries",
  tag: "narration",
  summary: "Add pronunciation entries to a publisher's lexicon, or replace those of the same grapheme",
  description:
    "The lexicon of one publisher's articles, over the global one. Requires that publisher's API key (Authorization: Bearer npk_...) or the operator's API key; another publisher's lexicon is a 404. The next render of a text containing a grapheme applies the entry; audio rendered before keeps its key until re-rendered " +
    "(GET ...lexicon/affected lists it, POST ...lexicon/rerender renders it again). 422 for an entry with neither phoneme nor alias, or past the lexicon's size.",
  auth: "api_key",
  rateLimit: "admin",
  params: PublisherLexiconParams,
  body: LexiconEntriesBody,
  responses: { 200: { description: "The whole lexicon after the change", schema: LexiconView } },
  async handle({ env, caller, params, body }) {
    const scope = publisherScope(caller, params.publisher);
    await writeEntries(env, scope, body.entries);
    return lexiconResponse(scope, await lexiconOf(env, scope), "json");
  },
});
