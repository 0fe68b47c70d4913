import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cacheDelete, cacheMatch, cachePut, forgetCopies } from "./edge-cache";

const KEY = "https://edge-cache.test/feed.xml";
const GET = new Request(KEY);

function feed(body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { headers: { "Content-Type": "application/rss+xml", "Cache-Control": "public, max-age=300", ETag: '"e1"', ...headers } });
}

/** Counts the Cache API reads `run` makes. */
async function edgeReads(run: () => Promise<unknown>): Promise<number> {
  const match = vi.spyOn(caches.default, "match");
  await run();
  const n = match.mock.calls.length;
  match.mockRestore();
  return n;
}

// Every test starts without copies in this module.
beforeEach(forgetCopies);
afterEach(() => vi.restoreAllMocks());

describe("the edge cache with the isolate's copy in front", () => {
  it("answers a stored response from the isolate, headers and body, without reading the edge", async () => {
    await cachePut(KEY, feed("<rss>one</rss>"));
    let hit: Response | undefined;
    expect(await edgeReads(async () => (hit = await cacheMatch(KEY, GET)))).toBe(0);
    expect(await hit!.text()).toBe("<rss>one</rss>");
    expect(hit!.headers.get("ETag")).toBe('"e1"');
    expect(Date.parse(hit!.headers.get("Date")!)).toBeGreaterThan(Date.now() - 60_000);
    // The copy serves again: its body is not used up by the first answer.
    expect(await (await cacheMatch(KEY, GET))!.text()).toBe("<rss>one</rss>");
  });

  it("copies an edge hit into the isolate, so only the first read goes to the edge", async () => {
    await cachePut(KEY, feed("<rss>two</rss>"));
    forgetCopies();
    expect(await edgeReads(() => cacheMatch(KEY, GET))).toBe(1);
    expect(await edgeReads(() => cacheMatch(KEY, GET))).toBe(0);
  });

  it("keeps no copy past the response's Date plus max-age: the edge decides", async () => {
    const stale = new Date(Date.now() - 10_000).toUTCString();
    await cachePut(KEY, feed("<rss>old</rss>", { "Cache-Control": "public, max-age=5", Date: stale }));
    expect(await edgeReads(() => cacheMatch(KEY, GET))).toBe(1);
    await cachePut(KEY, feed("<rss>no-max-age</rss>", { "Cache-Control": "no-store" }));
    expect(await edgeReads(() => cacheMatch(KEY, GET))).toBe(1);
  });

  it("answers a matching If-None-Match with a 304, from the copy and from the edge", async () => {
    await cachePut(KEY, feed("<rss>four</rss>"));
    const revalidate = new Request(KEY, { headers: { "If-None-Match": '"e1"' } });
    for (const fromEdge of [false, true]) {
      if (fromEdge) forgetCopies();
      const res = (await cacheMatch(KEY, revalidate))!;
      expect(res.status).toBe(304);
      expect(res.headers.get("ETag")).toBe('"e1"');
      expect(await res.text()).toBe("");
    }
    const other = await cacheMatch(KEY, new Request(KEY, { headers: { "If-None-Match": '"e0"' } }));
    expect(other!.status).toBe(200);
  });

  it("forgets a deleted key in the isolate and at the edge", async () => {
    await cachePut(KEY, feed("<rss>three</rss>"));
    await cacheDelete(KEY);
    expect(await cacheMatch(KEY, GET)).toBeUndefined();
  });
});
