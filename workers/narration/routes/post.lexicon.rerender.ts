import { route } from "../../core/route";
import { rerenderAffected } from "../lexicon-service";
import { RerenderView } from "../lexicon-schemas";

export const rerenderGlobalLexicon = route({
  method: "POST",
  path: "/v1/lexicon/rerender",
  tag: "narration",
  summary: "Render again the narrated articles whose audio a change of the global lexicon touches",
  description:
    "The global lexicon applies to every narration; a publisher's own entries win over it. Requires the admin token (x-service-email-token). Queues a render (in the article's own voice) of each article GET ...lexicon/affected lists that is not already rendering, " +
    "a bounded number a request; `remaining` says how many are left for the next one. Articles no entry touches keep their audio.",
  auth: "admin",
  rateLimit: "admin",
  responses: { 202: { description: "The queued render jobs", schema: RerenderView } },
  async handle({ env, requestId }) {
    const result = await rerenderAffected(env, null, requestId);
    return Response.json(result, { status: 202, headers: { "Cache-Control": "no-store" } });
  },
});
