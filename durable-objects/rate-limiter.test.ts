import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { enforceRateLimit, leaseSize } from "../workers/core/rate-limit";
import { testVars } from "../test/vars";

const limiter = (name: string) => env.RATE_LIMITER.getByName(name);

describe("RateLimiter (README: rate limits)", () => {
  it("grants a lease of up to what the window has left, then refuses with Retry-After", async () => {
    const stub = limiter("lease-test");
    expect((await stub.hit("b", 10, 60_000, 1, 4)).granted).toBe(4);
    expect((await stub.hit("b", 10, 60_000, 1, 4)).granted).toBe(4);
    const last = await stub.hit("b", 10, 60_000, 1, 4);
    expect(last).toMatchObject({ allowed: true, granted: 2, remaining: 0 });
    const refused = await stub.hit("b", 10, 60_000, 1, 4);
    expect(refused).toMatchObject({ allowed: false, granted: 0 });
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
  });

  it("takes a weight all or nothing", async () => {
    const stub = limiter("weight-test");
    expect((await stub.hit("agent_tools", 5, 60_000, 3)).allowed).toBe(true);
    expect((await stub.hit("agent_tools", 5, 60_000, 3)).allowed).toBe(false);
    expect((await stub.hit("agent_tools", 5, 60_000, 2)).granted).toBe(2);
  });

  it("a feeds burst asks the object once per lease, and still stops at the budget", async () => {
    const limit = Number(testVars.RATE_LIMIT_FEEDS_PER_MINUTE);
    const calls = vi.fn();
    const counting = {
      ...env,
      RATE_LIMITER: {
        getByName: (name: string) => {
          calls();
          return env.RATE_LIMITER.getByName(name);
        },
      },
    } as unknown as Env;
    const request = new Request("https://api.test/v1/podcasts/service.xml", { headers: { "cf-connecting-ip": "198.51.100.200" } });
    for (let i = 0; i < limit; i++) await enforceRateLimit(counting, request, "feeds");
    expect(calls).toHaveBeenCalledTimes(Math.ceil(limit / leaseSize(limit)));
    await expect(enforceRateLimit(counting, request, "feeds")).rejects.toMatchObject({ status: 429 });
  });
});
