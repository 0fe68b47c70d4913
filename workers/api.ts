import { receiveEmail } from "./articles/email-intake";
import { DIGEST_CRON, sendDailyDigest } from "./listeners/digest";
import { resendStaleJobs } from "./narration/job-sweep";
import { pruneListening } from "./kernel/download-count";
import { consumeWebhooks } from "./webhooks/deliver";
import { withRequestId } from "./core/request-id";
import { router } from "./router";

export { DedupeWindow } from "../durable-objects/dedupe-window";
export { RateLimiter } from "../durable-objects/rate-limiter";
export { RenderGate } from "../durable-objects/render-gate";
export { RenderStore } from "./narration/render-store";

/** The API Worker: the /v1 API, the podcast feeds, the OpenAPI document, OAuth and the web pages. */
export default {
  // One front door: every request, page and OAuth endpoint included, enters through the route table
  // (workers/router.ts), which throttles it, resolves its credential and renders its errors. The
  // address is parsed once here, for the table and every handler.
  fetch: (request, env, ctx) => withRequestId(request, () => router.fetch(request, env, ctx, new URL(request.url))),
  // Forwarded articles arriving by e-mail (issue 4: listener intake).
  email: async (message, env) => void (await receiveEmail(message, env)),
  // The crons of wrangler.toml: the daily digest (docs/rules.md "Rules" 6), and every 10 minutes the
  // lost-render sweep and the listening windows' pruning (docs/publishers.md "Listening numbers").
  scheduled: (controller, env, ctx) =>
    ctx.waitUntil(controller.cron === DIGEST_CRON ? sendDailyDigest(env) : Promise.all([resendStaleJobs(env), pruneListening(env)])),
  // Outbound webhooks to publishers and their dead letters (workers/webhooks/deliver.ts).
  queue: (batch, env) => consumeWebhooks(batch, env),
} satisfies ExportedHandler<Env>;
