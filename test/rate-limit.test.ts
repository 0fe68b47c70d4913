import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { enforceRateLimit, spendUnits, type RateBucket } from "../workers/core/rate-limit";
import { ApiError } from "../workers/core/errors";
import { routes } from "../workers/router";
import { methodsOf } from "../workers/core/route";
import { call } from "./support/client";
import { addNarratedArticle } from "./support/web";
import { testVars } from "./vars";

/**
 * docs/api-conventions.md "Rate limits" and docs/web.md "Page budget", written out so that a changed
 * budget fails here: reads 60 a minute per IP, feeds 600, pages 300.
 */
const READS_PER_MINUTE = 60;
const FEEDS_PER_MINUTE = 600;
const PAGES_PER_MINUTE = 300;

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

/** Spends `n` units of `bucket` for `ip` as requests would. */
async function spend(ip: string, bucket: RateBucket, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await outcome(ip, bucket);
}

/** A page of the web front-end, from `ip`, not following redirects. */
const page = (path: string, ip: string) => call(new URL(path, testVars.WEB_URL).href, { ip, redirect: "manual" });

describe("pages have their own budget, sized for people (issue 33 item 1)", () => {
  it("still serves the article page, the embed, the home page and a topic after 61 API reads from the same address", async () => {
    const { article } = await addNarratedArticle({ vertical: "science" });
    const ip = "198.51.100.20";
    const reads = await Promise.all(Array.from({ length: READS_PER_MINUTE + 1 }, () => call("/v1/stories/search?q=tide&expand=false", { ip })));
    expect(reads.filter((r) => r.status === 429)).toHaveLength(1);
    for (const path of [`/articles/${article.slug}`, `/embed/article/${article.slug}`, "/", "/topics/science"]) {
      expect((await page(path, ip)).status, path).toBe(200);
    }
  });

  it("answers every page of the table normally after 70 API reads from the same address", async () => {
    const { article } = await addNarratedArticle();
    const ip = "198.51.100.21";
    await spend(ip, "read", 70);
    const pages = routes.filter((r) => r.renderErrors && methodsOf(r).includes("GET"));
    expect(pages.length).toBeGreaterThan(10);
    for (const r of pages) {
      const res = await page(r.path.replace(":slug", article.slug), ip);
      expect(res.status, r.path).not.toBe(429);
    }
  });

  it("refuses past its own budget with a 'Please wait' page and Retry-After, while the API's reads go on", async () => {
    const { article } = await addNarratedArticle();
    const ip = "198.51.100.22";
    // Sized for people: several of them behind one address read many times what the API allows a client.
    expect(PAGES_PER_MINUTE).toBeGreaterThanOrEqual(5 * READS_PER_MINUTE);
    for (let i = 0; i < PAGES_PER_MINUTE; i++) expect((await outcome(ip, "pages")).status).toBe(200);
    const refused = await page(`/articles/${article.slug}`, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await refused.text()).toContain("Please wait");
    expect((await call("/v1/stories/search?q=tide&expand=false", { ip })).status).toBe(200);
  });

  it("shows the embed's 'Please wait' inside the publisher's frame: framable like the player, never a broken frame", async () => {
    const { article } = await addNarratedArticle();
    const ip = "198.51.100.23";
    await spend(ip, "pages", PAGES_PER_MINUTE);
    const refused = await page(`/embed/article/${article.slug}`, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("X-Frame-Options")).toBeNull();
    expect(refused.headers.get("Content-Security-Policy")).toContain("frame-ancestors *");
    expect(refused.headers.get("Retry-After")).not.toBeNull();
    expect(refused.headers.get("X-Robots-Tag")).toBe("noindex");
    const html = await refused.text();
    expect(html).toContain("Please wait");
    expect(html).toContain('class="embed"');
    // Every other page still refuses framing when it refuses the request.
    const other = await page(`/articles/${article.slug}`, ip);
    expect(other.status).toBe(429);
    expect(other.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("counts every page against the pages budget, but the forms that send mail against the API's, as their API twins do", async () => {
    const budgets = Object.fromEntries(routes.filter((r) => r.renderErrors).flatMap((r) => methodsOf(r).map((m) => [`${m} ${r.path}`, r.rateLimit])));
    const mailing = ["POST /sign-in", "POST /listen/subscribe", "POST /studio/sign-in"];
    for (const [key, bucket] of Object.entries(budgets)) expect(bucket, key).toBe(mailing.includes(key) ? "read" : "pages");
  });
});
