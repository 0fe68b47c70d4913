import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./errors";
import {
  clientIp,
  enforceAddressLimit,
  FORWARDS_PER_HOUR_PER_ADDRESS,
  leaseSize,
  NO_ADDRESS,
  RENDERS_PER_HOUR_PER_ADDRESS,
  spendUnits,
  type RateBucket,
} from "./rate-limit";

/**
 * The budgets and their leases, against the real RateLimiter object (durable-objects/rate-limiter.ts)
 * with its calls counted: how many units one call takes, when the isolate asks again, what a refusal says.
 * Request-level budgets (which route spends which) are in test/rate-limit.test.ts.
 */

let subjects = 0;
/** A subject no other test has spent from. */
const fresh = (name: string) => `${name}-${++subjects}`;

/** env with its RateLimiter calls counted. */
function counted(over: Record<string, string> = {}) {
  const seen = { calls: 0 };
  const counting = {
    ...env,
    ...over,
    RATE_LIMITER: {
      getByName: (name: string) => {
        seen.calls++;
        return env.RATE_LIMITER.getByName(name);
      },
    },
  } as unknown as Env;
  return { env: counting, seen };
}

/**
 * env whose RateLimiter is a stand-in granting `granted` units a call, its window ending a minute
 * after the (mocked) clock of the call: for the lease's own rules, at any time and in any number.
 */
function granting(granted: number) {
  const seen = { calls: 0 };
  const limiter = {
    getByName: () => ({
      hit: async () => {
        seen.calls++;
        return { allowed: true, granted, remaining: 0, retryAfter: 0, windowEnds: Date.now() + 60_000 };
      },
    }),
  };
  return { env: { ...env, RATE_LIMITER: limiter } as unknown as Env, seen };
}

afterEach(() => {
  vi.restoreAllMocks();
});

async function refusal(run: () => Promise<void>): Promise<ApiError | null> {
  try {
    await run();
    return null;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

describe("leases", () => {
  it("take a sixtieth of the budget, at least one unit", () => {
    expect([0, 1, 59, 60, 119, 120, 600, 1200].map(leaseSize)).toEqual([1, 1, 1, 1, 1, 2, 10, 20]);
  });

  it("serve a lease's units from the isolate and ask the limiter again when it is spent", async () => {
    const { env: e, seen } = counted();
    const subject = fresh("lease");
    for (let i = 0; i < 20; i++) expect(await spendUnits(e, subject, "t", 1200)).toBeNull();
    expect(seen.calls).toBe(1);
    expect(await spendUnits(e, subject, "t", 1200)).toBeNull();
    expect(seen.calls).toBe(2);
  });

  it("ask the limiter when the lease holds fewer units than the weight", async () => {
    const { env: e, seen } = counted();
    const subject = fresh("weight");
    expect(await spendUnits(e, subject, "t", 1200, 15)).toBeNull(); // lease of 20: 5 left
    expect(seen.calls).toBe(1);
    expect(await spendUnits(e, subject, "t", 1200, 5)).toBeNull(); // exactly what is left
    expect(seen.calls).toBe(1);
    expect(await spendUnits(e, subject, "t", 1200, 1)).toBeNull();
    expect(seen.calls).toBe(2);
  });

  it("are kept per bucket and per subject", async () => {
    const { env: e, seen } = counted();
    const subject = fresh("apart");
    await spendUnits(e, subject, "a", 1200);
    await spendUnits(e, subject, "b", 1200);
    await spendUnits(e, fresh("apart"), "a", 1200);
    expect(seen.calls).toBe(3);
    await spendUnits(e, subject, "a", 1200);
    await spendUnits(e, subject, "b", 1200);
    expect(seen.calls).toBe(3);
  });

  it("hold nothing when the limiter grants only the weight: a budget of 60 is counted exactly", async () => {
    const { env: e, seen } = counted();
    const subject = fresh("exact");
    for (let i = 0; i < 60; i++) expect(await spendUnits(e, subject, "t", 60)).toBeNull();
    expect(seen.calls).toBe(60);
    const refused = await spendUnits(e, subject, "t", 60);
    expect(refused?.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused?.retryAfter).toBeLessThanOrEqual(60);
  });

  it("end with their window: spent from at its last millisecond, and the limiter asked at its end", async () => {
    const { env: e, seen } = granting(20);
    const clock = vi.spyOn(Date, "now").mockReturnValue(1_800_000_000_000);
    await spendUnits(e, "window-end", "t", 1200); // a lease of 20 until a minute later
    clock.mockReturnValue(1_800_000_059_999);
    await spendUnits(e, "window-end", "t", 1200);
    expect(seen.calls).toBe(1);
    clock.mockReturnValue(1_800_000_060_000);
    await spendUnits(e, "window-end", "t", 1200);
    expect(seen.calls).toBe(2);
  });

  it("outlive a sweep of the map while their window lasts (a lost lease would refuse its client early)", async () => {
    const { env: e, seen } = granting(20);
    vi.spyOn(Date, "now").mockReturnValue(1_900_000_000_000);
    await spendUnits(e, "sweep", "kept", 1200);
    // Enough other leases that every later miss sweeps the map (10,000 entries).
    for (let i = 0; i < 10_000; i++) await spendUnits(e, "sweep", `filler-${i}`, 1200);
    const calls = seen.calls;
    await spendUnits(e, "sweep", "kept", 1200);
    expect(seen.calls).toBe(calls);
  });

  it("add up when concurrent misses each take one, so no granted unit is lost", async () => {
    const { env: e, seen } = counted();
    const subject = fresh("concurrent");
    await Promise.all([spendUnits(e, subject, "t", 1200), spendUnits(e, subject, "t", 1200)]);
    expect(seen.calls).toBe(2);
    for (let i = 0; i < 38; i++) await spendUnits(e, subject, "t", 1200);
    expect(seen.calls).toBe(2);
    await spendUnits(e, subject, "t", 1200);
    expect(seen.calls).toBe(3);
  });
});

describe("address budgets", () => {
  it("refuse past the budget with 429, the budget in words and the seconds to wait", async () => {
    const address = fresh("198.51.100");
    for (let i = 0; i < 60; i++) await enforceAddressLimit(env, address, "read");
    const refused = await refusal(() => enforceAddressLimit(env, address, "read"));
    expect(refused).toMatchObject({ status: 429, message: "rate limit of 60 requests per minute exceeded" });
    expect(refused?.headers["Retry-After"]).toMatch(/^[1-9][0-9]*$/); // RFC 9110 §10.2.3: delay-seconds
    expect(Number(refused?.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.headers["Retry-After"])).toBeLessThanOrEqual(60);
  });

  it.each([
    ["renders", RENDERS_PER_HOUR_PER_ADDRESS, "hour", 3600],
    ["forward", FORWARDS_PER_HOUR_PER_ADDRESS, "hour", 3600],
    ["audio", 60 * 20, "minute", 60],
  ] as [RateBucket, number, string, number][])("%s: %i a %s", async (bucket, limit, per, windowSeconds) => {
    expect([RENDERS_PER_HOUR_PER_ADDRESS, FORWARDS_PER_HOUR_PER_ADDRESS]).toEqual([20, 30]);
    const address = fresh(bucket);
    for (let i = 0; i < limit; i++) await enforceAddressLimit(env, address, bucket);
    const refused = await refusal(() => enforceAddressLimit(env, address, bucket));
    expect(refused?.message).toBe(`rate limit of ${limit} requests per ${per} exceeded`);
    // The window is the bucket's: an hour's budget waits more than a minute.
    expect(Number(refused?.headers["Retry-After"])).toBeGreaterThan(windowSeconds - 5);
    expect(Number(refused?.headers["Retry-After"])).toBeLessThanOrEqual(windowSeconds);
  });

  it.each([
    ["read", "RATE_LIMIT_READ_PER_MINUTE", 60],
    ["admin", "RATE_LIMIT_ADMIN_PER_MINUTE", 30],
    ["feeds", "RATE_LIMIT_FEEDS_PER_MINUTE", 600],
    ["pages", "RATE_LIMIT_PAGES_PER_MINUTE", 300],
    ["audio", "RATE_LIMIT_READ_PER_MINUTE", 60 * 20],
  ] as [RateBucket, string, number][])("%s: %s unset is its default, %i a minute", async (bucket, name, limit) => {
    const unset: Record<string, unknown> = { ...env };
    delete unset[name];
    const address = fresh(`unset-${bucket}`);
    for (let i = 0; i < limit; i++) await enforceAddressLimit(unset as unknown as Env, address, bucket);
    const refused = await refusal(() => enforceAddressLimit(unset as unknown as Env, address, bucket));
    expect(refused?.message).toBe(`rate limit of ${limit} requests per minute exceeded`);
  });

  it("a budget configured as 0 is no limit, and the limiter is never asked", async () => {
    const { env: e, seen } = counted({ RATE_LIMIT_READ_PER_MINUTE: "0" });
    const address = fresh("unlimited");
    for (let i = 0; i < 70; i++) await enforceAddressLimit(e, address, "read");
    expect(seen.calls).toBe(0);
  });

  it("count the address Cloudflare saw, an IPv6 one by its /64, and one budget for requests without it", () => {
    const from = (headers: Record<string, string>) => new Request("https://api.test/v1/stories", { headers });
    expect(clientIp(from({ "cf-connecting-ip": "203.0.113.7" }))).toBe("203.0.113.7");
    expect(clientIp(from({ "cf-connecting-ip": "2001:db8:1:2::99" }))).toBe("2001:db8:1:2::/64");
    expect(clientIp(from({ "x-forwarded-for": "203.0.113.8" }))).toBe(NO_ADDRESS);
    expect(NO_ADDRESS).toBe("local");
  });
});
