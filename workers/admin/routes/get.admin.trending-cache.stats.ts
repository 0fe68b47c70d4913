import { route } from "../../core/route";
import { trendingCacheStats } from "../../articles/trending-cache";
import { CacheStats } from "../../core/ttl-cache";

const noStore = { "Cache-Control": "no-store" };

export const getTrendingCacheStats = route({
  method: "GET",
  path: "/v1/admin/trending-cache/stats",
  tag: "admin",
  summary: "Counters of this worker's in-process trending cache",
  auth: "admin",
  responses: { 200: { description: "Per-isolate counters", schema: CacheStats } },
  handle: ({ env }) => Response.json(trendingCacheStats(env), { headers: noStore }),
});
