import { DurableObject } from "cloudflare:workers";

/** The outcome of one counted request. */
export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Whole seconds until the next request would be allowed; 0 when allowed. */
  retryAfter: number;
}

/**
 * Exact per-client limits: one object per client IP, one sliding-window log per bucket.
 * The log is kept in memory on purpose: a limit only has to hold while the client keeps
 * calling, and an idle object that is evicted forgets windows that have expired anyway.
 */
export class RateLimiter extends DurableObject {
  private readonly logs = new Map<string, number[]>();

  /** Counts one request of `weight` units against `bucket`, allowing `limit` units per `windowMs`. */
  async hit(bucket: string, limit: number, windowMs: number, weight = 1): Promise<RateDecision> {
    const now = Date.now();
    const log = (this.logs.get(bucket) ?? []).filter((t) => t > now - windowMs);
    if (log.length + weight > limit) {
      this.logs.set(bucket, log);
      const retryAfter = Math.max(1, Math.ceil(((log[0] ?? now) + windowMs - now) / 1000));
      return { allowed: false, remaining: 0, retryAfter };
    }
    for (let i = 0; i < weight; i++) log.push(now);
    this.logs.set(bucket, log);
    return { allowed: true, remaining: limit - log.length, retryAfter: 0 };
  }
}
