import type { JobView } from "../../workers/narration/job-view";
import { signWebhook } from "../../workers/core/auth";
import { testVars } from "../vars";
import { apiKeyHeaders, call } from "./client";

/** POST /v1/webhook/publish with the publish webhook signature (docs/narration-api.md "Publish webhook") over the exact body sent. */
export async function publishSigned(article: Record<string, unknown>): Promise<Response> {
  const raw = JSON.stringify(article);
  const signature = await signWebhook(testVars.PUBLISH_WEBHOOK_SECRET, new TextEncoder().encode(raw));
  return call("/v1/webhook/publish", { method: "POST", body: raw, headers: { "content-type": "application/json", "x-legacy-signature": signature } });
}

/** Polls GET /v1/jobs/{id} until the job is done or failed (the e2e project consumes the real queue). */
export async function pollJob(id: string): Promise<JobView> {
  for (let i = 0; i < 300; i++) {
    const job = await (await call(`/v1/jobs/${id}`, { headers: apiKeyHeaders })).json<JobView>();
    if (job.state === "done" || job.state === "failed") return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} did not finish`);
}
