import { route } from "../../core/route";
import { ReindexStatus, reindexStatus } from "../../articles/reindex";

const noStore = { "Cache-Control": "no-store" };

export const getSearchReindexStatus = route({
  method: "GET",
  path: "/v1/admin/search/reindex/status",
  tag: "admin",
  summary: "Status of the latest reindex started on this worker",
  auth: "admin",
  responses: { 200: { description: "running, elapsed_sec, ok (all null if none was started here)", schema: ReindexStatus } },
  handle: () => Response.json(reindexStatus(), { headers: noStore }),
});
