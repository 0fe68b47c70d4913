import { serveAuthorizationServer } from "./kernel/oauth/server";
import { receiveEmail } from "./articles/email-intake";
import { DIGEST_CRON, sendDailyDigest } from "./listeners/digest";
import { resendStaleJobs } from "./narration/job-sweep";
import { withRequestId } from "./core/request-id";
import { router } from "./router";
import { serveWebPage } from "./web/routes";

export { DedupeWindow } from "../durable-objects/dedupe-window";
export { RateLimiter } from "../durable-objects/rate-limiter";
export { RenderGate } from "../durable-objects/render-gate";
export { RenderStore } from "./narration/render-store";

/** The API Worker: the /v1 API, the podcast feeds, the OpenAPI document, OAuth and the web pages. */
export default {
  // The OAuth provider's endpoints (metadata, token, revocation, registration), then the
  // server-rendered pages (sign-in, consent), then the route table. All three read the request's
  // address, parsed once for them: every request passes through them.
  fetch: (request, env, ctx) =>
    withRequestId(request, () => {
      const url = new URL(request.url);
      return serveAuthorizationServer(request, url, env, ctx) ?? serveWebPage(request, url, env, ctx) ?? router.fetch(request, env, ctx, url);
    }),
  // Forwarded articles arriving by e-mail (issue 4: listener intake).
  email: async (message, env) => void (await receiveEmail(message, env)),
  // The crons of wrangler.toml: the daily digest (docs/rules.md "Rules" 6) and the lost-render sweep.
  scheduled: (controller, env, ctx) =>
    ctx.waitUntil(controller.cron === DIGEST_CRON ? sendDailyDigest(env) : resendStaleJobs(env)),
} satisfies ExportedHandler<Env>;
