import * as v from "valibot";
import { route } from "../../core/route";
import { LanguageField } from "../../kernel/language";
import { cachedSearch, SearchResponse } from "../search-service";

/** Query limits of docs/rules.md "Rules" 8. */
const SearchQuery = v.object({
  q: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(200),
    v.description(
      "Free text; every word must match (stemmed, diacritics folded: Munchen finds München). Japanese, Chinese or Thai text matches where it occurs inside the article, as those scripts put no spaces between words.",
    ),
  ),
  vertical: v.optional(v.pipe(v.string(), v.maxLength(80), v.description("Only this topic slug."))),
  language: v.optional(LanguageField),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
  offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10000)), 0),
  expand: v.optional(v.pipe(v.boolean(), v.description("Add external news suggestions when under 5 local results.")), true),
});

export const storiesSearch = route({
  method: "GET",
  path: "/v1/stories/search",
  tag: "stories",
  summary: "Full-text search of the public archive (BM25, title weighted), with external news suggestions",
  description: "With ?language=de, only the articles narrated in that language (any region of it: de finds de-AT).",
  auth: "none",
  rateLimit: "read",
  query: SearchQuery,
  headers: v.object({
    "x-service-search-cache": v.optional(v.pipe(v.literal("bypass"), v.description("Skip the in-process cache for this request."))),
  }),
  responses: {
    200: { description: "Results, best first", schema: SearchResponse, headers: { "x-service-search-cache": "hit, miss or bypass" } },
  },
  async handle({ env, query, headers }) {
    const { json, cache } = await cachedSearch(env, query, headers["x-service-search-cache"] === "bypass");
    return new Response(json, {
      headers: { "Content-Type": "application/json", "x-service-search-cache": cache, "Cache-Control": "no-store" },
    });
  },
});
