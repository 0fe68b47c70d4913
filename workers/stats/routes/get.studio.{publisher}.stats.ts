import { ValidationError } from "../../core/errors";
import { parseQuery } from "../../core/validate";
import { studioPage } from "../../studio/layout";
import { statsPage, statsPeriodProblem } from "../pages/stats-page";
import { publisherStats, StatsQuery, statsResponse } from "../stats-query";

/** GET {WEB_URL}/studio/{publisher}/stats?from=&to=&format=: the listening numbers for any member; format=csv downloads the days. */
export const getStudioStats = studioPage({
  method: "GET",
  path: "/studio/:publisher/stats",
  summary: "A publisher's listening numbers",
  async handle({ env, url, studio }) {
    let query: ReturnType<typeof parseQuery<typeof StatsQuery>>;
    try {
      query = parseQuery(StatsQuery, url);
    } catch (err) {
      if (err instanceof ValidationError) return statsPeriodProblem(env, studio, err.issues);
      throw err;
    }
    const stats = await publisherStats(env, studio.publisher, query.from, query.to);
    return query.format === "csv" ? statsResponse(stats, "csv") : statsPage(env, studio, stats);
  },
});
