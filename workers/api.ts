import { router } from "./router";

export { RateLimiter } from "../durable-objects/rate-limiter";
export { RenderGate } from "../durable-objects/render-gate";

/** The API Worker: the /v1 API, feeds, discovery and agent endpoints. */
export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
