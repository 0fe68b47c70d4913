import * as v from "valibot";
import { mayActFor } from "../../core/auth";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { database } from "../../db/index";
import { audioReachOf } from "../../kernel/public-urls";
import { JobView, jobView } from "../job-view";
import { findJob } from "../jobs-service";

export const getJob = route({
  method: "GET",
  path: "/v1/jobs/:job_id",
  tag: "narration",
  summary: "A render job: poll until done or failed",
  description: "Requires the API key (query api_key, header x-service-key or x-legacy-key); 401 without it.",
  auth: "api_key",
  params: v.object({ job_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("Job id from POST /v1/jobs.")) }),
  responses: {
    200: { description: "The job", schema: JobView },
    404: { description: "Unknown job" },
  },
  async handle({ env, params, caller }) {
    const hit = await findJob(database(env), params.job_id);
    // A publisher key sees the jobs of its own articles; a raw-text job is open to whoever holds its random id.
    if (!hit || (hit.publisher !== null && !mayActFor(caller, hit.publisher))) throw new ApiError("not_found", "no job with that id");
    return Response.json(jobView(env, hit.job, hit.slug, audioReachOf(hit), hit.spoken), { headers: { "Cache-Control": "no-store" } });
  },
});
