import * as v from "valibot";
import { route } from "../../core/route";
import { ReindexStatus, reindexStatus, startReindex } from "../../articles/reindex";

const noStore = { "Cache-Control": "no-store" };

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
