import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminHeaders, call } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { cachedTrending } from "./trending-cache";

const stats = async () => (await call("/v1/admin/trending-cache/stats", { headers: adminHeaders })).json<Record<string, number>>();

describe("trending cache", () => {
  it("answers a repeated question from the cache until bypassed, and reports it", async () => {
    const before = await stats();
    const first = await addArticle({ vertical: "cache-test" });
    const opts = { limit: 10, vertical: "cache-test" };
    expect((await cachedTrending(env, opts)).map((a) => a.id)).toEqual([first.id]);
    await addArticle({ vertical: "cache-test" });
    expect(await cachedTrending(env, opts)).toHaveLength(1);
    expect(await cachedTrending(env, opts, true)).toHaveLength(2);
    const after = await stats();
    expect(after.hits - before.hits).toBe(1);
    expect(after.misses - before.misses).toBe(1);
    expect(after).toMatchObject({ ttl_seconds: 60, capacity: 200 });
    expect(Object.keys(after).sort()).toEqual(["capacity", "entries", "evictions", "hits", "misses", "ttl_seconds"]);
  });

  it("keys by every option and is off with a TTL of 0", async () => {
    await addArticle({ vertical: "cache-keys" });
    const off = { ...env, TRENDING_CACHE_TTL_SECONDS: "0" };
    await cachedTrending(off, { limit: 5, vertical: "cache-keys" });
    await addArticle({ vertical: "cache-keys" });
    expect(await cachedTrending(off, { limit: 5, vertical: "cache-keys" })).toHaveLength(2);
    await cachedTrending(env, { limit: 5, vertical: "cache-keys", audioReadyOnly: false });
    expect(await cachedTrending(env, { limit: 5, vertical: "cache-keys", audioReadyOnly: true })).toHaveLength(0);
  });
});
