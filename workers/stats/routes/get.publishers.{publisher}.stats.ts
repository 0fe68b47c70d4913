import { mayActFor } from "../../core/auth";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { PublisherParams } from "../../kernel/fields";
import { roleIn } from "../../studio/members";
import { publisherStats, StatsQuery, statsResponse, StatsView } from "../stats-query";

export const getPublisherStats = route({
  method: "GET",
  path: "/v1/publishers/:publisher/stats",
  tag: "stats",
  summary: "A publisher's listening numbers by day, article and app (IAB Podcast Measurement 2.2 downloads)",
  description:
    "Requires that publisher's API key (Authorization: Bearer npk_...), the operator's API key or the admin token, or the studio session of one of its members " +
    "(a viewer too; {WEB_URL}/studio/{publisher}/stats draws the same numbers); another publisher's numbers are a 404. " +
    "A download counts once per listener (address and user agent) and episode in 24 hours, once a minute of audio or the whole file reached them, " +
    "summing byte ranges over requests, never for a known bot; no address is stored. Days are UTC. format=csv answers the days as text/csv.",
  auth: "api_key_or_member",
  rateLimit: "admin",
  params: PublisherParams,
  query: StatsQuery,
  responses: {
    200: { description: "The numbers (text/csv of the days with format=csv)", schema: StatsView },
  },
  async handle({ env, caller, member, params, query }) {
    const allowed = caller ? mayActFor(caller, params.publisher) : member ? (await roleIn(env, params.publisher, member.email)) !== null : false;
    if (!allowed) throw new ApiError("not_found", "no numbers of that publisher for this key");
    return statsResponse(await publisherStats(env, params.publisher, query.from, query.to), query.format);
  },
});
