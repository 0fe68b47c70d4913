import { budgetKey } from "./client-address";
import { config } from "./config";
import { ApiError } from "./errors";

/** The windows a budget is counted over. */
const WINDOW_MS = { minute: 60_000, hour: 3_600_000 } as const;

/** Renders one address may start in an hour with render-now (issue 29, item 5: each one costs the operator). */
export const RENDERS_PER_HOUR_PER_ADDRESS = 20;
/** Forwards one address may store in an hour (issue 29, item 5: each stores up to 200,000 characters). */
export const FORWARDS_PER_HOUR_PER_ADDRESS = 30;

/**
 * Per-IP budgets (docs/rules.md "Rules" 8): `limit` units `per` window. `read` covers public
 * reads, `admin` every /v1/admin/* path (throttled by prefix), `audio` the audio files that podcast
 * apps fetch in many ranged requests, `feeds` the podcast feeds and transcripts that aggregators poll
 * by the hundred from few addresses; `pages` the web front-end's pages, the embeddable player and
 * their forms, which people open (several behind one address: a household, an office, a carrier's
 * NAT) and which never share the API's read budget (issue 33); `renders` the renders render-now
 * starts and `forward` the articles listeners forward, the two writes that cost the operator money
 * or storage.
 */
const BUCKETS = {
  read: { limit: (env: Env) => config(env).RATE_LIMIT_READ_PER_MINUTE, per: "minute" },
  admin: { limit: (env: Env) => config(env).RATE_LIMIT_ADMIN_PER_MINUTE, per: "minute" },
  audio: { limit: (env: Env) => config(env).RATE_LIMIT_READ_PER_MINUTE * 20, per: "minute" },
  feeds: { limit: (env: Env) => config(env).RATE_LIMIT_FEEDS_PER_MINUTE, per: "minute" },
  pages: { limit: (env: Env) => config(env).RATE_LIMIT_PAGES_PER_MINUTE, per: "minute" },
  renders: { limit: () => RENDERS_PER_HOUR_PER_ADDRESS, per: "hour" },
  forward: { limit: () => FORWARDS_PER_HOUR_PER_ADDRESS, per: "hour" },
} as const;

export type RateBucket = keyof typeof BUCKETS;

/**
 * The client as per-IP budgets count it: the address Cloudflare saw, an IPv6 one by its /64
 * (client-address.ts); local and test requests without it share one budget.
 */
export function clientIp(request: Request): string {
  return budgetKey(request.headers.get("cf-connecting-ip") ?? NO_ADDRESS);
}

/** The one budget of requests that carry no client address (local and test requests). */
export const NO_ADDRESS = "local";

/**
 * Units this isolate may spend without asking the limiter again, by bucket and IP, until the
 * window they were granted in ends. Expired entries are swept once the map is large.
 */
const leases = new Map<string, { left: number; until: number }>();
const SWEEP_AT = 10_000;

/**
 * How many units one call to the limiter takes: a sixtieth of the budget (one second's share of a
 * per-minute budget), at least one. The read and admin budgets (60 and 30) are then checked exactly, one call
 * per request; the audio and feeds budgets of podcast apps and directories once per 20 and 10
 * requests. Leased units count as spent at once, so a client served by several isolates at the
 * same time may be refused up to one lease per isolate early, never admitted late.
 */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.floor(limit / 60));
}

/**
 * Spends `weight` units of `bucket` for `subject` (a client IP, an agent key) against `limit` units per
 * `windowMs` (a minute unless given): from this isolate's lease when it holds enough, else from the
 * subject's RateLimiter object, which grants a new lease. Resolves with the seconds to wait when the
 * budget is spent, else null.
 */
export async function spendUnits(
  env: Pick<Env, "RATE_LIMITER">,
  subject: string,
  bucket: string,
  limit: number,
  weight = 1,
  windowMs: number = WINDOW_MS.minute,
): Promise<{ retryAfter: number } | null> {
  const key = `${bucket} ${subject}`;
  const now = Date.now();
  const held = leases.get(key);
  if (held && held.left >= weight && now < held.until) {
    held.left -= weight;
    return null;
  }
  const decision = await env.RATE_LIMITER.getByName(subject).hit(bucket, limit, windowMs, weight, leaseSize(limit));
  if (!decision.allowed) return { retryAfter: decision.retryAfter };
  if (decision.granted === weight) return null;
  if (leases.size >= SWEEP_AT) for (const [k, lease] of leases) if (lease.until <= now) leases.delete(k);
  // Concurrent misses may each take a lease: units of the same window add up, none is lost.
  const current = leases.get(key);
  if (current && current.until === decision.windowEnds) current.left += decision.granted - weight;
  else leases.set(key, { left: decision.granted - weight, until: decision.windowEnds });
  return null;
}

/** Counts the request against `bucket`; throws 429 with Retry-After when the budget is spent. */
export function enforceRateLimit(env: Pick<Env, "RATE_LIMITER"> & object, request: Request, bucket: RateBucket): Promise<void> {
  return enforceAddressLimit(env, clientIp(request), bucket);
}

/**
 * Counts one unit of `bucket` for the client address `address` (clientIp of its request, carried where the
 * request is not at hand: an MCP tool call's Caller); throws 429 with Retry-After when the budget is spent.
 */
export async function enforceAddressLimit(env: Pick<Env, "RATE_LIMITER"> & object, address: string, bucket: RateBucket): Promise<void> {
  const { per } = BUCKETS[bucket];
  const limit = BUCKETS[bucket].limit(env as Env);
  if (limit <= 0) return;
  const refused = await spendUnits(env, address, bucket, limit, 1, WINDOW_MS[per]);
  if (refused) {
    throw new ApiError("rate_limited", `rate limit of ${limit} requests per ${per} exceeded`, {
      "Retry-After": String(refused.retryAfter),
    });
  }
}
