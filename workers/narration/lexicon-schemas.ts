import * as v from "valibot";
import { mayActFor, type ApiCaller } from "../core/auth";
import { ApiError, ValidationError } from "../core/errors";
import type { RawBody } from "../core/route";
import { named } from "../core/schema-registry";
import type { LexiconEntry } from "../kernel/lexicon";
import { normaliseText } from "../kernel/normalize-text";
import { affectedArticles, MAX_LEXICON_ENTRIES, MAX_RERENDERS_PER_REQUEST, writeEntries, type LexiconScope } from "./lexicon-service";
import { fromPls, PLS_CONTENT_TYPE, PlsError, toPls } from "./pls";
import { VoiceField } from "./fields";

/** Field schemas, views and helpers shared by the lexicon routes (docs/narration-api.md "Pronunciation lexicon"). */

export const GraphemeField = v.pipe(
  v.string(),
  v.transform(normaliseText),
  v.minLength(1, "grapheme must not be empty"),
  v.maxLength(100),
  v.regex(/[\p{L}\p{N}]/u, "grapheme must hold a letter or a digit"),
  v.description(
    "The written form, matched as a whole word (or words) and as written, case included, in the text as narrated (quotes and dashes folded, whitespace collapsed).",
  ),
);

export const PhonemeField = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(200),
  v.description(
    'How to say it in IPA (e.g. ˈŋwɪn): SSML <phoneme alphabet="ipa"> for Azure and Google; eSpeak NG\'s phoneme input, converted by an English IPA table (where a symbol is outside it, eSpeak uses the alias).',
  ),
);

export const AliasField = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(200),
  v.description(
    "Words to say instead (e.g. Win): SSML <sub alias> for Azure and Google where there is no phoneme; said in place of the word by OpenAI, ElevenLabs, Aura and self-hosted servers.",
  ),
);

/** One entry as a client writes it: a phoneme, an alias, or both. */
export const LexiconEntryInput = v.pipe(
  v.object({
    grapheme: GraphemeField,
    phoneme: v.optional(v.nullable(PhonemeField), null),
    alias: v.optional(v.nullable(AliasField), null),
  }),
  v.check((e) => e.phoneme !== null || e.alias !== null, "an entry needs a phoneme, an alias or both"),
);

export const LexiconEntryView = named(
  "LexiconEntry",
  v.object({
    grapheme: GraphemeField,
    phoneme: v.pipe(v.nullable(v.string()), v.description("IPA transcription, or null.")),
    alias: v.pipe(v.nullable(v.string()), v.description("Words said instead, or null.")),
  }),
);

export const LexiconView = named(
  "Lexicon",
  v.object({
    publisher: v.pipe(
      v.nullable(v.string()),
      v.description("The publisher whose lexicon this is; null for the global lexicon, which applies to every narration."),
    ),
    entries: v.pipe(v.array(LexiconEntryView), v.description(`Every entry, by grapheme; at most ${MAX_LEXICON_ENTRIES}.`)),
  }),
);

export const LexiconQuery = v.object({
  format: v.pipe(
    v.optional(v.picklist(["json", "pls"]), "json"),
    v.description(`json (the default) or pls: a W3C Pronunciation Lexicon Specification 1.0 document (${PLS_CONTENT_TYPE}, alphabet ipa).`),
  ),
});

export const LexiconEntriesBody = named(
  "LexiconEntries",
  v.object({
    entries: v.pipe(
      v.array(LexiconEntryInput),
      v.minLength(1),
      v.maxLength(500),
      v.description("Entries to add, or to replace by grapheme: at most 500 a request (import a PLS document for more)."),
    ),
  }),
);

export const LexiconImportBody = named(
  "LexiconImport",
  v.object({
    pls: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(1_000_000),
      v.description(
        'A W3C PLS 1.0 document: each <lexeme> with its <grapheme>s, its first <phoneme> (IPA: alphabet="ipa" on <lexicon> or <phoneme>) and its first <alias>. No DOCTYPE.',
      ),
    ),
    replace: v.pipe(
      v.optional(v.boolean(), false),
      v.description("true: the document becomes the whole lexicon; false (the default): its entries are added or replace those of the same grapheme."),
    ),
  }),
);

/** The import's `replace` as a query parameter: the way to say it with a raw PLS body, which has no JSON member for it. */
export const LexiconImportQuery = v.object({
  replace: v.pipe(
    v.optional(v.boolean()),
    v.description(
      "true: the document becomes the whole lexicon (the same as replace: true in a JSON body; either one is enough). For a raw PLS body, the only way to say it.",
    ),
  ),
});

/**
 * The import's body as a PLS document itself, beside the JSON form: application/pls+xml (the PLS
 * media type, RFC 4267) or application/xml, read within the same limit and checked as the JSON
 * form's `pls` member is.
 */
const RAW_PLS: RawBody = {
  description: "A W3C PLS 1.0 document as it is (no DOCTYPE), UTF-8; ?replace=true makes it the whole lexicon.",
  toBody: (text) => ({ pls: text }),
};
export const PLS_RAW_BODIES: Record<string, RawBody> = { [PLS_CONTENT_TYPE]: RAW_PLS, "application/xml": RAW_PLS };

/** What both import routes say about the document they take. */
export const PLS_IMPORT_DESCRIPTION =
  `The document comes as JSON ({"pls": "<lexicon ...>", "replace": false}) or as it is, with Content-Type ${PLS_CONTENT_TYPE} or application/xml; either way within the API's body limit. ` +
  "Each <lexeme> gives one entry per <grapheme>, with its first <phoneme> (IPA only; another alphabet is a 422) and its first <alias>. " +
  "replace: true (in the JSON body, or ?replace=true) makes the document the whole lexicon. A document that is not a PLS lexicon, or an entry that fails the entry checks, is a 422 and changes nothing.";

export const GraphemeQuery = v.object({ grapheme: GraphemeField });

export const DeletedView = named("LexiconDeleted", v.object({ deleted: v.pipe(v.number(), v.description("How many entries were removed (0 or 1).")) }));

export const AffectedView = named(
  "LexiconAffected",
  v.object({
    publisher: v.pipe(v.nullable(v.string()), v.description("The publisher whose articles were looked at; null for every publisher's.")),
    articles: v.pipe(
      v.array(
        v.object({
          slug: v.pipe(v.string(), v.description("The article's slug.")),
          publisher: v.pipe(v.string(), v.description("The article's publisher, whose lexicon applies to it over the global one.")),
          title: v.pipe(v.string(), v.description("The article's title.")),
          audio_key: v.pipe(v.string(), v.description("The audio the article has now.")),
          provider: v.pipe(v.string(), v.description("The engine that spoke it.")),
          voice: v.pipe(v.string(), v.description("The voice that spoke it.")),
          graphemes: v.pipe(
            v.array(v.string()),
            v.description("The graphemes of the entries that would apply to it now (empty when an entry that applied is gone)."),
          ),
          rendering: v.pipe(v.boolean(), v.description("True while a render of it is queued or running.")),
        }),
      ),
      v.description(
        "The narrated articles whose audio no longer matches the lexicon: the entries that apply to the text for the engine that spoke it differ from those its render applied. Articles no entry touches are never listed.",
      ),
    ),
  }),
);

export const RerenderView = named(
  "LexiconRerender",
  v.object({
    queued: v.pipe(
      v.array(
        v.object({
          slug: v.pipe(v.string(), v.description("The article rendered again.")),
          job_id: v.pipe(v.string(), v.description("Poll GET /v1/jobs/{job_id}.")),
        }),
      ),
      v.description(`Render jobs queued, at most ${MAX_RERENDERS_PER_REQUEST}.`),
    ),
    remaining: v.pipe(v.number(), v.description("Affected articles left for another request.")),
  }),
);

/** The publisher's lexicon scope for `caller`: the operator's API key acts for any publisher, a publisher's key for its own; anyone else's is a 404. */
export function publisherScope(caller: ApiCaller, publisher: string): LexiconScope {
  if (!mayActFor(caller, publisher)) throw new ApiError("not_found", "no lexicon of that publisher for this key");
  return publisher;
}

/** The lexicon response: JSON, or a PLS document. */
export function lexiconResponse(scope: LexiconScope, entries: LexiconEntry[], format: "json" | "pls"): Response {
  const headers = { "Cache-Control": "no-store" };
  if (format === "pls") return new Response(toPls(entries), { headers: { ...headers, "Content-Type": `${PLS_CONTENT_TYPE}; charset=utf-8` } });
  return Response.json({ publisher: scope, entries } satisfies v.InferOutput<typeof LexiconView>, { headers });
}

/**
 * Reads a PLS document's entries through the same field checks as JSON entries and writes them; 422
 * naming what is wrong. `replace` (the query's) replaces the lexicon as the body's own member does.
 */
export async function importPls(env: Pick<Env, "DB">, scope: LexiconScope, body: v.InferOutput<typeof LexiconImportBody>, replace = false): Promise<number> {
  let parsed: LexiconEntry[];
  try {
    parsed = fromPls(body.pls);
  } catch (err) {
    if (err instanceof PlsError) throw new ValidationError([{ loc: ["body", "pls"], msg: err.message, type: "pls_invalid" }]);
    throw err;
  }
  const entries = parsed.map((raw, i) => {
    const checked = v.safeParse(LexiconEntryInput, raw);
    if (!checked.success) {
      throw new ValidationError([{ loc: ["body", "pls"], msg: `entry ${i + 1} ("${raw.grapheme}"): ${checked.issues[0].message}`, type: "pls_invalid" }]);
    }
    return checked.output;
  });
  await writeEntries(env, scope, entries, body.replace || replace);
  return entries.length;
}

/** The answer of both affected routes: the articles a change of `scope`'s lexicon re-renders. */
export async function affectedResponse(env: Env, scope: LexiconScope): Promise<Response> {
  const articles = (await affectedArticles(env, scope)).map((a) => ({
    slug: a.slug,
    publisher: a.publisher,
    title: a.title,
    audio_key: a.audioKey,
    provider: a.provider,
    voice: a.voice,
    graphemes: a.graphemes,
    rendering: a.rendering,
  }));
  return Response.json({ publisher: scope, articles }, { headers: { "Cache-Control": "no-store" } });
}

/** The longest text a lexicon preview speaks: a sentence or two, not an article. */
export const MAX_PREVIEW_CHARS = 500;

export const PreviewBody = named(
  "LexiconPreviewBody",
  v.object({
    text: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, "text must not be empty"),
      v.maxLength(MAX_PREVIEW_CHARS),
      v.description("A sentence to hear through the lexicon."),
    ),
    voice: v.optional(VoiceField),
  }),
);
