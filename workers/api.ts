import { sendDailyDigest } from "./listeners/digest";
import { receiveEmail } from "./articles/email-intake";
import { router } from "./router";

export { DedupeWindow } from "../durable-objects/dedupe-window";
export { RateLimiter } from "../durable-objects/rate-limiter";
export { RenderGate } from "../durable-objects/render-gate";

/** The API Worker: the /v1 API, feeds, discovery and agent endpoints. */
export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
  // Forwarded articles arriving by e-mail (issue 4: listener intake).
  email: async (message, env) => void (await receiveEmail(message, env)),
  // The daily digest cron of wrangler.toml (SPEC.md part 6).
  scheduled: (_controller, env, ctx) => ctx.waitUntil(sendDailyDigest(env)),
} satisfies ExportedHandler<Env>;
