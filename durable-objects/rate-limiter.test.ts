import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { enforceRateLimit, spendUnits } from "../workers/core/rate-limit";

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

  // docs/api-conventions.md "Rate limits": feeds 600 a minute per IP, an isolate taking a sixtieth (10 units) at a
  // time, "once per 10 requests", and "never admitted past its budget".
  it("a feeds burst asks the object once per 10 requests, and still stops at 600", async () => {
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
    for (let i = 0; i < 600; i++) await enforceRateLimit(counting, request, "feeds");
    expect(calls).toHaveBeenCalledTimes(60);
    await expect(enforceRateLimit(counting, request, "feeds")).rejects.toMatchObject({ status: 429 });
  });

  // Leases hold a sixtieth of the limit: with a limit that is no multiple of the weight, the window
  // or a lease ends with fewer units than one call weighs, which must be refused, not spent.
  // planted: `left < weight` -> `left <= 0` in RateLimiter.hit (601, 7), or
  // `held.left >= weight` -> `held.left > 0` in spendUnits (605, 610).
  it.each([
    [601, 3],
    [605, 3],
    [610, 3],
    [7, 3],
    [62, 4],
  ])("weighted calls never spend past the limit: %i units a minute at %i a call", async (limit, weight) => {
    const subject = `agent:overdraw-${limit}-${weight}-${crypto.randomUUID()}`;
    let allowed = 0;
    for (let i = 0; i < Math.ceil(limit / weight) + 3; i++) if ((await spendUnits(env, subject, "agent_tools", limit, weight)) === null) allowed++;
    expect(allowed * weight).toBeLessThanOrEqual(limit);
    expect(allowed).toBe(Math.floor(limit / weight));
  });
});
