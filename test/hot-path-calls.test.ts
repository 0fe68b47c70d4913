import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../workers/api";
import { forgetEdgeCache, readyArticle } from "./support/feeds";
import { testVars } from "./vars";

/**
 * What one request on each hot path asks of storage once its answer is cached (docs/benchmarks.md "Benchmarks"):
 * D1 statements, Durable Object calls, R2 operations and Cache API lookups, counted at the bindings.
 * No D1 on any cache hit, and at most one Durable Object call (the per-IP limiter's).
 */
type Counts = { d1: number; durableObjects: number; r2: number; cache: number };

function counted(): { env: Env; counts: Counts } {
  const counts: Counts = { d1: 0, durableObjects: 0, r2: 0, cache: 0 };
  const tally = <T extends object>(target: T, key: keyof Counts): T =>
    new Proxy(target, {
      get(t, p, r) {
        const value = Reflect.get(t, p, r);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          counts[key]++;
          return Reflect.apply(value, t, args);
        };
      },
    });
  const namespace = (ns: DurableObjectNamespace) =>
    new Proxy(ns, {
      get(t, p, r) {
        const value = Reflect.get(t, p, r);
        if (p !== "getByName" && p !== "get") return typeof value === "function" ? value.bind(t) : value;
        return (...args: unknown[]) => tally((value as (...a: unknown[]) => object).apply(t, args), "durableObjects");
      },
    });
  const countingEnv = {
    ...env,
    DB: tally(env.DB, "d1"),
    AUDIO: tally(env.AUDIO, "r2"),
    RATE_LIMITER: namespace(env.RATE_LIMITER),
    RENDER_GATE: namespace(env.RENDER_GATE),
    DEDUPE_WINDOW: namespace(env.DEDUPE_WINDOW),
  } as Env;
  const edge = caches.default;
  for (const method of ["match", "put"] as const) {
    const original = edge[method].bind(edge);
    vi.spyOn(edge, method).mockImplementation((...args: Parameters<typeof original>) => {
      counts.cache++;
      return Reflect.apply(original, edge, args) as Promise<never>;
    });
  }
  return { env: countingEnv, counts };
}

async function get(path: string, bindings: Env, headers: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(new URL(path, testVars.BASE_URL), { headers: { "cf-connecting-ip": "203.0.113.77", ...headers } });
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, bindings, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

/** The calls of the second request to `path` (the first fills the caches). */
async function secondRequest(path: string, headers: Record<string, string> = {}) {
  const warm = counted();
  expect((await get(path, warm.env, headers)).status).toBeLessThan(400);
  vi.restoreAllMocks();
  const { env: bindings, counts } = counted();
  const res = await get(path, bindings, headers);
  vi.restoreAllMocks();
  return { status: res.status, counts };
}

/** 200s that read neither D1 nor the Cache API and called at most one Durable Object (the limiter). */
function answeredFromMemory(...requests: Awaited<ReturnType<typeof secondRequest>>[]): void {
  for (const { status, counts } of requests) {
    expect(status).toBe(200);
    expect(counts.d1).toBe(0);
    expect(counts.durableObjects).toBeLessThanOrEqual(1);
    expect(counts.cache).toBe(0);
  }
}

describe("hot paths on a cache hit", () => {
  afterEach(() => vi.restoreAllMocks());

  it("a cached public feed, its 304 and a cached MP3 read no D1 and call at most one Durable Object", async () => {
    await forgetEdgeCache(["/v1/podcasts/service-science.xml"]);
    const { audioKey: key } = await readyArticle({ vertical: "science" });
    const feed = await secondRequest("/v1/podcasts/service-science.xml");
    expect(feed.status).toBe(200);
    const etag = (await get("/v1/podcasts/service-science.xml", env)).headers.get("etag")!;
    const notModified = await secondRequest("/v1/podcasts/service-science.xml", { "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    const audio = await secondRequest(`/v1/audio/${key}.mp3`);
    const ranged = await secondRequest(`/v1/audio/${key}.mp3`, { Range: "bytes=0-1" });
    expect(ranged.status).toBe(206);
    for (const { counts } of [feed, notModified, audio, ranged]) {
      expect(counts.d1).toBe(0);
      expect(counts.r2).toBe(0);
      expect(counts.durableObjects).toBeLessThanOrEqual(1);
    }
    // All four are answered from the isolate's copies.
    expect([feed, notModified, audio, ranged].map((r) => r.counts.cache)).toEqual([0, 0, 0, 0]);
  });

  it("a search cache hit and the anonymous stories feed read no D1 and call at most one Durable Object", async () => {
    await readyArticle({ title: "Tides of the northern harbour" });
    const search = await secondRequest("/v1/stories/search?q=tides&expand=false");
    const stories = await secondRequest("/v1/stories/feed?limit=20");
    answeredFromMemory(search, stories);
  });

  it("an article read a moment ago, over REST and as get_article, reads no D1 (kernel/article-by-slug.ts)", async () => {
    await readyArticle({ slug: "tides-of-the-north" });
    const record = await secondRequest("/v1/articles/tides-of-the-north");
    const tool = await secondRequest("/v1/agent/articles/tides-of-the-north");
    answeredFromMemory(record, tool);
  });
});
