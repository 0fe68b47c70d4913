import * as v from "valibot";
import { route } from "../core/route";
import { ReindexStatus, reindexStatus, startReindex } from "../articles/reindex";
import { searchCacheStats } from "../articles/search-service";
import { trendingCacheStats } from "../articles/trending-cache";
import { CacheStats } from "../articles/ttl-cache";

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

export const getTrendingCacheStats = route({
  method: "GET",
  path: "/v1/admin/trending-cache/stats",
  tag: "admin",
  summary: "Counters of this worker's in-process trending cache",
  auth: "admin",
  responses: { 200: { description: "Per-isolate counters", schema: CacheStats } },
  handle: ({ env }) => Response.json(trendingCacheStats(env), { headers: noStore }),
});

const ReindexStarted = v.object({
  started: v.pipe(v.boolean(), v.description("false when a reindex was already running on this worker.")),
  status: ReindexStatus,
});

export const postSearchReindex = route({
  method: "POST",
  path: "/v1/admin/search/reindex",
  tag: "admin",
  summary: "Start a background rebuild of the search index; returns at once",
  auth: "admin",
  responses: { 200: { description: "Started (or already running)", schema: ReindexStarted } },
  handle({ env, ctx }) {
    const { started } = startReindex(env, ctx);
    return Response.json({ started, status: reindexStatus() }, { headers: noStore });
  },
});

export const getSearchReindexStatus = route({
  method: "GET",
  path: "/v1/admin/search/reindex/status",
  tag: "admin",
  summary: "Status of the latest reindex started on this worker",
  auth: "admin",
  responses: { 200: { description: "running, elapsed_sec, ok (all null if none was started here)", schema: ReindexStatus } },
  handle: () => Response.json(reindexStatus(), { headers: noStore }),
});

export const searchAdminRoutes = [getSearchCacheStats, getTrendingCacheStats, postSearchReindex, getSearchReindexStatus];
