import * as v from "valibot";
import { presentSummary } from "../../articles/present";
import { digestArticles } from "../digest-query";
import { AGENT_VERTICALS, catalogueVertical } from "../verticals";
import { ArticleListing, VerticalsField } from "./fields";
import { defineTool } from "./tool";

const WINDOWS = { "24h": 24 * 3_600_000, "7d": 7 * 24 * 3_600_000, "30d": 30 * 24 * 3_600_000 } as const;

const Input = v.object({
  verticals: v.optional(VerticalsField),
  window: v.optional(v.pipe(v.picklist(["24h", "7d", "30d"]), v.description("How far back to rank: 24h, 7d or 30d.")), "24h"),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("How many articles, 1 to 20.")), 5),
});

const Output = v.object({
  window: v.string(),
  verticals: v.array(v.string()),
  articles: v.array(
    v.object({
      ...ArticleListing.entries,
      summary: v.pipe(v.string(), v.description("Empty on stubs.")),
      plays: v.pipe(v.number(), v.description("Plays inside the window.")),
      score: v.pipe(v.number(), v.description("Trending score: plays in the window against the article's age.")),
    }),
  ),
});

export const digest = defineTool({
  name: "digest",
  title: "Digest of top articles",
  description:
    "The top articles across the given topics (all six when omitted) over a window (24h, 7d or 30d; default 24h), ranked by " +
    "the trending score: plays in the window against age. limit 1 to 20, default 5. Paid (x402), the heaviest action; " +
    "free with an OAuth token holding digest:run.",
  input: Input,
  output: Output,
  scope: "digest:run",
  // docs/rules.md 8: the digest counts more against the per-agent budget.
  budgetCost: 5,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  // A paid digest pays the publishers of the articles it returns.
  publishersOf: (value) => value.articles.map((a) => a.publisher),
  async run(input, caller, env) {
    const verticals = [...new Set((input.verticals ?? AGENT_VERTICALS).map(catalogueVertical))];
    const rows = await digestArticles(env, { verticals, windowMs: WINDOWS[input.window], limit: input.limit, listenerId: caller.listenerId });
    return {
      window: input.window,
      verticals,
      articles: rows.map(({ article, plays, score }) => {
        const shown = presentSummary(env, article, caller.listenerId);
        return {
          slug: shown.slug,
          title: shown.title,
          publisher: shown.publisher,
          vertical: shown.vertical,
          audio_url: shown.audio_url,
          listen_seconds: shown.listen_seconds,
          summary: shown.summary,
          plays,
          score,
        };
      }),
    };
  },
});
