import * as v from "valibot";
import { presentSummary } from "../../articles/present";
import { canonicalTag } from "../../kernel/language";
import { cachedSearch } from "../../articles/search-service";
import { cachedTrending } from "../../articles/trending-cache";
import { AgentVerticalField, catalogueVertical } from "../verticals";
import { ArticleListing } from "./fields";
import { defineTool } from "./tool";

/** The deepest offset a search may page to (docs/rules.md 8). */
const MAX_OFFSET = 10_000;

const Input = v.object({
  query: v.optional(
    v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Free text; every word must match (stemmed). Omit it for the articles trending now.")),
  ),
  vertical: v.optional(AgentVerticalField),
  // A pattern, not the REST Language schema: its Intl check has no JSON Schema, which a tool's inputSchema needs.
  language: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(35),
      v.regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, "must be a BCP 47 language tag (de, pt-BR, ja)"),
      v.description("BCP 47 tag: only the articles narrated in this language (de finds de and de-AT), with a query or without."),
    ),
  ),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("How many articles, 1 to 100.")), 20),
});

const Output = v.object({
  query: v.pipe(v.nullable(v.string()), v.description("The query searched, or null for the trending list.")),
  vertical: v.nullable(v.string()),
  articles: v.array(
    v.object({
      ...ArticleListing.entries,
      snippet: v.pipe(v.string(), v.description("Excerpt; matched terms are wrapped in <mark>...</mark> (HTML-escaped text).")),
    }),
  ),
});

type Found = v.InferOutput<typeof Output>["articles"];

/**
 * Public articles only: the search service also lists publisher_only stubs (never listener_private
 * ones), so pages are read until `limit` public hits are found or the matches run out.
 */
async function publicHits(env: Env, q: string, vertical: string | undefined, language: string | undefined, limit: number): Promise<Found> {
  const found: Found = [];
  for (let offset = 0; found.length < limit && offset <= MAX_OFFSET; offset += limit) {
    const { body } = await cachedSearch(env, { q, vertical, language, limit, offset, expand: false }, false);
    for (const hit of body.results) {
      if (hit.visibility === "public") found.push({ ...pick(hit), snippet: hit.snippet });
    }
    if (body.results.length < limit) break;
  }
  return found.slice(0, limit);
}

function pick(a: v.InferOutput<typeof ArticleListing>): v.InferOutput<typeof ArticleListing> {
  return {
    slug: a.slug,
    title: a.title,
    publisher: a.publisher,
    vertical: a.vertical,
    audio_url: a.audio_url,
    listen_seconds: a.listen_seconds,
  };
}

/** Without a query: the trending ranking of public articles (of `language` when given), the summary as the snippet. */
async function trendingNow(env: Env, vertical: string | undefined, language: string | undefined, limit: number): Promise<Found> {
  const ranked = await cachedTrending(env, { limit, vertical, language, listenerId: null, excludeStubs: true });
  return ranked.map((a) => {
    const shown = presentSummary(env, a, null);
    return { ...pick(shown), snippet: shown.summary };
  });
}

export const search_articles = defineTool({
  name: "search_articles",
  title: "Search articles",
  description:
    "Full-text search of the public archive of narrated articles, best match first (without a query: the articles trending now). " +
    "language (BCP 47: de, ja, ar) keeps only the articles narrated in it, with a query or without. " +
    "Each result has slug, title, publisher, vertical, snippet, audio_url (MP3, null until rendered) and listen_seconds. Free.",
  input: Input,
  output: Output,
  scope: "articles:read",
  budgetCost: 1,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, _caller, env) {
    const vertical = input.vertical ? catalogueVertical(input.vertical) : undefined;
    const language = input.language && (canonicalTag(input.language) ?? input.language);
    const articles = input.query
      ? await publicHits(env, input.query, vertical, language, input.limit)
      : await trendingNow(env, vertical, language, input.limit);
    return { query: input.query ?? null, vertical: vertical ?? null, articles };
  },
});
