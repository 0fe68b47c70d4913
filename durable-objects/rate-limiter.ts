import { DurableObject } from "cloudflare:workers";

/** The outcome of one counted request. */
export interface RateDecision {
  allowed: boolean;
  /** Units granted (0 when refused): at least the weight asked for, at most the lease. */
  granted: number;
  remaining: number;
  /** Whole seconds until the next request would be allowed; 0 when allowed. */
  retryAfter: number;
  /** When the current window ends (ms since the epoch): a lease is good until then. */
  windowEnds: number;
}

/**
 * Exact per-client limits: one object per client IP (or agent key), one fixed window per bucket:
 * `limit` units from the first request of a window until `windowMs` later. Two numbers per bucket,
 * whatever the traffic: a log of timestamps grew with the budget and was scanned on every request,
 * so a busy client made every later request slower. The windows are kept in memory on purpose: a
 * limit only has to hold while the client keeps calling, and an idle object that is evicted forgets
 * windows that have expired anyway.
 */
export class RateLimiter extends DurableObject {
  private readonly windows = new Map<string, { start: number; used: number }>();

  /**
   * Counts one request of `weight` units against `bucket` (all or nothing), allowing `limit` units
   * per window. With `lease` above `weight`, up to `lease` units are granted at once (as many as the
   * window has left), for the caller to spend without asking again (workers/core/rate-limit.ts).
   */
  async hit(bucket: string, limit: number, windowMs: number, weight = 1, lease = weight): Promise<RateDecision> {
    const now = Date.now();
    let window = this.windows.get(bucket);
    if (!window || now >= window.start + windowMs) {
      window = { start: now, used: 0 };
      this.windows.set(bucket, window);
    }
    const windowEnds = window.start + windowMs;
    const left = limit - window.used;
    if (left < weight) {
      return { allowed: false, granted: 0, remaining: Math.max(0, left), retryAfter: Math.max(1, Math.ceil((windowEnds - now) / 1000)), windowEnds };
    }
    const granted = Math.min(Math.max(weight, lease), left);
    window.used += granted;
    return { allowed: true, granted, remaining: limit - window.used, retryAfter: 0, windowEnds };
  }
}
