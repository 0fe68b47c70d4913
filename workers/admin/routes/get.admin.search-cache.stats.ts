import { route } from "../../core/route";
import { searchCacheStats } from "../../articles/search-service";
import { CacheStats } from "../../core/ttl-cache";

const noStore = { "Cache-Control": "no-store" };

export const getSearchCacheStats = route({
  method: "GET",
  path: "/v1/admin/search-cache/stats",
  tag: "admin",
  summary: "Counters of this worker's in-process search cache",
  auth: "admin",
  responses: { 200: { description: "Per-isolate counters", schema: CacheStats } },
  handle: ({ env }) => Response.json(searchCacheStats(env), { headers: noStore }),
});
