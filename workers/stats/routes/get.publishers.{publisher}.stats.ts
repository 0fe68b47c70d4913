import * as v from "valibot";
import { mayActFor } from "../../core/auth";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { PublisherParams } from "../../kernel/fields";
import { MAX_DAYS, publisherStats, statsCsv, StatsView } from "../stats-query";

const DAY_MS = 86_400_000;

const Day = v.pipe(
  v.string(),
  v.isoDate("must be a date, YYYY-MM-DD"),
  v.check((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "must be a real date"),
);

const StatsQuery = v.pipe(
  v.object({
    from: v.pipe(v.optional(Day), v.description("The first UTC day, YYYY-MM-DD (default: 29 days before `to`).")),
    to: v.pipe(v.optional(Day), v.description("The last UTC day, YYYY-MM-DD, included (default: today).")),
    format: v.pipe(v.optional(v.picklist(["json", "csv"]), "json"), v.description("json, or csv: the days as text/csv.")),
  }),
  v.transform(({ from, to, format }) => {
    const last = to ?? new Date().toISOString().slice(0, 10);
    return { to: last, from: from ?? new Date(Date.parse(`${last}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10), format };
  }),
  v.forward(
    v.check(({ from, to }) => from <= to, "must not be before from"),
    ["to"],
  ),
  v.forward(
    v.check(({ from, to }) => (Date.parse(to) - Date.parse(from)) / DAY_MS < MAX_DAYS, `the range may span at most ${MAX_DAYS} days`),
    ["to"],
  ),
);

export const getPublisherStats = route({
  method: "GET",
  path: "/v1/publishers/:publisher/stats",
  tag: "stats",
  summary: "A publisher's listening numbers by day, article and app (IAB Podcast Measurement 2.2 downloads)",
  description:
    "Requires that publisher's API key (Authorization: Bearer npk_...), the operator's API key or the admin token; another publisher's numbers are a 404. " +
    "A download counts once per listener (address and user agent) and episode in 24 hours, once a minute of audio or the whole file reached them, " +
    "summing byte ranges over requests, never for a known bot; no address is stored. Days are UTC. format=csv answers the days as text/csv.",
  auth: "api_key_or_admin",
  rateLimit: "admin",
  params: PublisherParams,
  query: StatsQuery,
  responses: {
    200: { description: "The numbers (text/csv of the days with format=csv)", schema: StatsView },
  },
  async handle({ env, caller, params, query }) {
    if (!mayActFor(caller, params.publisher)) throw new ApiError("not_found", "no numbers of that publisher for this key");
    const stats = await publisherStats(env, params.publisher, query.from, query.to);
    if (query.format === "csv") {
      const filename = `${params.publisher.replace(/[^A-Za-z0-9._-]+/g, "-")}-${query.from}-${query.to}.csv`;
      return new Response(statsCsv(stats), {
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
      });
    }
    return Response.json(stats, { headers: { "Cache-Control": "no-store" } });
  },
});
