import { config } from "./config";
import { ApiError } from "./errors";

/**
 * Per-IP budgets (README "Rules" 8). `read` covers public reads, `admin` every /v1/admin/* path
 * (throttled by prefix), `audio` the audio files that podcast apps fetch in many ranged requests,
 * `feeds` the podcast feeds and transcripts that aggregators poll by the hundred from few addresses.
 */
const BUCKETS = {
  read: (env: Env) => config(env).RATE_LIMIT_READ_PER_MINUTE,
  admin: (env: Env) => config(env).RATE_LIMIT_ADMIN_PER_MINUTE,
  audio: (env: Env) => config(env).RATE_LIMIT_READ_PER_MINUTE * 20,
  feeds: (env: Env) => config(env).RATE_LIMIT_FEEDS_PER_MINUTE,
} as const;

export type RateBucket = keyof typeof BUCKETS;

const WINDOW_MS = 60_000;

/** The client address Cloudflare saw; local and test requests without it share one budget. */
export function clientIp(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? "local";
}

/** Counts the request against `bucket`; throws 429 with Retry-After when the budget is spent. */
export async function enforceRateLimit(
  env: Pick<Env, "RATE_LIMITER"> & object,
  request: Request,
  bucket: RateBucket,
): Promise<void> {
  const limit = BUCKETS[bucket](env as Env);
  if (limit <= 0) return;
  const stub = env.RATE_LIMITER.getByName(clientIp(request));
  const decision = await stub.hit(bucket, limit, WINDOW_MS);
  if (!decision.allowed) {
    throw new ApiError("rate_limited", `rate limit of ${limit} requests per minute exceeded`, {
      "Retry-After": String(decision.retryAfter),
    });
  }
}
