import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { enforceRateLimit, spendUnits, type RateBucket } from "../workers/core/rate-limit";
import { ApiError } from "../workers/core/errors";
import { routes } from "../workers/router";
import { call } from "./support/client";

/** docs/api-conventions.md "Rate limits", written out so that a changed budget fails here: reads 60 a minute per IP, feeds 600. */
const READS_PER_MINUTE = 60;
const FEEDS_PER_MINUTE = 600;

function from(ip: string) {
  return new Request("https://api.test/v1/stories/search", { headers: { "cf-connecting-ip": ip } });
}

async function outcome(ip: string, bucket: RateBucket) {
  try {
    await enforceRateLimit(env, from(ip), bucket);
    return { status: 200, retryAfter: null };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: err.status, retryAfter: err.headers["Retry-After"] ?? null };
  }
}

describe("per-IP rate limiting", () => {
  it("allows the configured reads per minute, then 429 with Retry-After", async () => {
    const limit = READS_PER_MINUTE;
    for (let i = 0; i < limit; i++) expect((await outcome("198.51.100.7", "read")).status).toBe(200);
    const denied = await outcome("198.51.100.7", "read");
    expect(denied.status).toBe(429);
    expect(Number(denied.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(denied.retryAfter)).toBeLessThanOrEqual(60);
  });

  it("counts each IP and each bucket on its own", async () => {
    const limit = 30; // docs/api-conventions.md "Rate limits": admin 30 a minute
    for (let i = 0; i < limit; i++) await outcome("198.51.100.8", "admin");
    expect((await outcome("198.51.100.8", "admin")).status).toBe(429);
    expect((await outcome("198.51.100.8", "read")).status).toBe(200);
    expect((await outcome("198.51.100.9", "admin")).status).toBe(200);
  });

  it("never lets concurrent requests past the limit", async () => {
    const limit = READS_PER_MINUTE;
    const results = await Promise.all(Array.from({ length: limit + 20 }, () => outcome("198.51.100.10", "read")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(limit);
  });

  it("spends weighted units from leases: one limiter call per lease, never past the limit", async () => {
    let calls = 0;
    const counting = {
      RATE_LIMITER: {
        getByName: (name: string) => {
          calls++;
          return env.RATE_LIMITER.getByName(name);
        },
      },
    } as unknown as Env;
    // 600 a minute: leases of 10 units; weight 3 leaves units a lease cannot cover, asked for again.
    let allowed = 0;
    for (let i = 0; i < 250; i++) if ((await spendUnits(counting, "agent:lease-test", "agent_tools", 600, 3)) === null) allowed++;
    expect(allowed).toBe(200);
    expect(calls).toBeLessThanOrEqual(1 + 250 - 200 + 600 / 9);
    const refused = await spendUnits(counting, "agent:lease-test", "agent_tools", 600, 1);
    expect(refused?.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it("gives podcast feeds and transcripts their own budget, sized for aggregators", async () => {
    const read = READS_PER_MINUTE;
    const feeds = FEEDS_PER_MINUTE;
    // An aggregator polls many feeds from few addresses: several times the API's read budget.
    expect(feeds).toBeGreaterThanOrEqual(10 * read);
    for (let i = 0; i < feeds; i++) expect((await outcome("198.51.100.11", "feeds")).status).toBe(200);
    expect((await outcome("198.51.100.11", "feeds")).status).toBe(429);
    expect((await outcome("198.51.100.11", "read")).status).toBe(200);
  });

  it("counts every feed and transcript path against the feeds budget, not the read budget", async () => {
    const podcastRoutes = routes.filter((r) => r.path.startsWith("/v1/podcasts/"));
    expect(podcastRoutes.length).toBeGreaterThan(5);
    for (const r of podcastRoutes) expect(r.rateLimit, r.path).toBe("feeds");
    const ip = "198.51.100.12";
    for (let i = 0; i < READS_PER_MINUTE; i++) await outcome(ip, "read");
    expect((await call("/v1/stories/search?q=tide&expand=false", { ip })).status).toBe(429);
    expect((await call("/v1/podcasts/service.xml", { ip })).status).toBe(200);
  });
});
