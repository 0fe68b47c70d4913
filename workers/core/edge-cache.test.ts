import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cacheDelete, cacheMatch, cachedCopy, cachePut, forgetCopies, keepCopy, MAX_COPY_BYTES } from "./edge-cache";

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

  it("reads max-age wherever the header lists it, in any case (RFC 9111 §5.2), and s-maxage is not it", async () => {
    for (const [cacheControl, copied] of [
      ["max-age=60", true],
      ["public,max-age=60", true],
      ["public, max-age=60, must-revalidate", true],
      ["Public, Max-Age=60", true],
      ["s-maxage=60", false],
      ["public, max-age=0", false],
    ] as const) {
      forgetCopies();
      await cachePut(KEY, feed("<rss/>", { "Cache-Control": cacheControl }));
      expect(await edgeReads(() => cacheMatch(KEY, GET)), cacheControl).toBe(copied ? 0 : 1);
    }
  });

  it("keeps a response's own Date, and stamps one only where there is none", async () => {
    const date = new Date(Date.now() - 60_000).toUTCString();
    await cachePut(KEY, feed("<rss/>", { Date: date }));
    expect((await cacheMatch(KEY, GET))!.headers.get("Date")).toBe(date);
  });

  it("lets a copy go exactly when its Date plus max-age is reached", async () => {
    const date = new Date(Math.floor(Date.now() / 1000) * 1000);
    await cachePut(KEY, feed("<rss/>", { Date: date.toUTCString(), "Cache-Control": "max-age=60" }));
    const now = vi.spyOn(Date, "now").mockReturnValue(date.getTime() + 59_999);
    expect(await edgeReads(() => cacheMatch(KEY, GET))).toBe(0);
    now.mockReturnValue(date.getTime() + 60_000);
    // The edge copy has expired for this clock too: nothing is copied back.
    expect(await edgeReads(() => cacheMatch(KEY, GET))).toBe(1);
  });

  it("answers a failed If-Match with a 412 from the copy, and keeps the copy's headers and status", async () => {
    await cachePut(KEY, feed("<rss/>"));
    const res = (await cacheMatch(KEY, new Request(KEY, { headers: { "If-Match": '"e0"' } })))!;
    expect(res.status).toBe(412);
    const whole = (await cacheMatch(KEY, GET))!;
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("application/rss+xml");
  });

  it("keeps the copy when the edge refuses to store: the caches are an optimisation", async () => {
    vi.spyOn(caches.default, "put").mockRejectedValue(new Error("edge down"));
    await cachePut(KEY, feed("<rss>kept</rss>"));
    expect(await (await cacheMatch(KEY, GET))!.text()).toBe("<rss>kept</rss>");
  });

  it("copies a body of at most a quarter of the budget, whether or not its length is stated", async () => {
    const key = (n: number) => `${KEY}?size=${n}`;
    await cachePut(key(1), feed("x".repeat(MAX_COPY_BYTES)));
    expect(await edgeReads(() => cacheMatch(key(1), GET))).toBe(0);
    await cachePut(key(2), feed("x".repeat(MAX_COPY_BYTES + 1)));
    expect(await edgeReads(() => cacheMatch(key(2), GET))).toBe(1);
    await cachePut(key(3), feed("small", { "Content-Length": String(MAX_COPY_BYTES + 1) }));
    expect(await edgeReads(() => cacheMatch(key(3), new Request(key(3))))).toBe(1);
    expect(MAX_COPY_BYTES).toBe(6 * 1024 * 1024);
  });

  it("lets the least recently used copy go once the copies pass 24 MB, and counts a replaced copy once", async () => {
    const key = (n: number) => `${KEY}?n=${n}`;
    const big = () => feed("x".repeat(MAX_COPY_BYTES));
    for (const n of [1, 2, 3]) await cachePut(key(n), big());
    // Replacing a copy frees its bytes: four puts of key 4 hold 6 MB, not 24.
    for (let i = 0; i < 4; i++) await cachePut(key(4), big());
    // 24 MB exactly: all four are kept. Key 1 read again is the most recently used.
    for (const n of [1, 2, 3, 4]) expect(await edgeReads(() => cacheMatch(key(n), GET)), `key ${n}`).toBe(0);
    await cacheMatch(key(1), GET);
    await cachePut(key(5), feed("y"));
    for (const n of [3, 4, 5, 1]) expect(await edgeReads(() => cacheMatch(key(n), GET)), `key ${n}`).toBe(0);
    expect(await edgeReads(() => cacheMatch(key(2), GET))).toBe(1);
  });

  it("copies a body whose stated length is exactly the limit", async () => {
    await cachePut(KEY, feed("x".repeat(MAX_COPY_BYTES), { "Content-Length": String(MAX_COPY_BYTES) }));
    expect(await edgeReads(() => cacheMatch(KEY, GET))).toBe(0);
  });

  it("keeps no copy of a response that stops being fresh the moment it arrives, so it takes no room", async () => {
    const key = (n: number) => `${KEY}?fresh=${n}`;
    const big = (headers: Record<string, string> = {}) => feed("x".repeat(MAX_COPY_BYTES), headers);
    for (const n of [1, 2, 3]) await cachePut(key(n), big());
    const now = Math.floor(Date.now() / 1000) * 1000;
    vi.spyOn(Date, "now").mockReturnValue(now);
    await keepCopy(key(4), big({ Date: new Date(now - 60_000).toUTCString(), "Cache-Control": "max-age=60" }));
    await keepCopy(key(5), feed("y", { Date: new Date(now).toUTCString() }));
    // Had the stale copy been kept, the copies would pass 24 MB and the first would go.
    expect(await edgeReads(() => cacheMatch(key(1), GET))).toBe(0);
  });

  it("cancels the body of a response it does not copy, unread", async () => {
    let cancelled = false;
    const body = new ReadableStream({ cancel: () => void (cancelled = true) });
    await keepCopy(KEY, new Response(body, { headers: { "Cache-Control": "no-store" } }));
    expect(cancelled).toBe(true);
  });

  it("counts one copy once when two keep it at the same time", async () => {
    const key = (n: number) => `${KEY}?same=${n}`;
    const big = () => feed("x".repeat(MAX_COPY_BYTES), { Date: new Date().toUTCString() });
    await Promise.all([keepCopy(key(1), big()), keepCopy(key(1), big())]);
    for (const n of [2, 3, 4]) await keepCopy(key(n), big());
    // 24 MB exactly, had key 1 been counted once: every copy is still there.
    for (const n of [1, 2, 3, 4]) expect(await edgeReads(() => cacheMatch(key(n), GET)), `key ${n}`).toBe(0);
  });

  it("lets an expired copy go when it is asked for, so its room is free again", async () => {
    const key = (n: number) => `${KEY}?expired=${n}`;
    const now = Math.floor(Date.now() / 1000) * 1000;
    const clock = vi.spyOn(Date, "now").mockReturnValue(now);
    const big = (maxAge: number) => feed("x".repeat(MAX_COPY_BYTES), { Date: new Date(now).toUTCString(), "Cache-Control": `max-age=${maxAge}` });
    await keepCopy(key(1), big(300));
    await keepCopy(key(2), big(1));
    clock.mockReturnValue(now + 1000);
    expect(cachedCopy(key(2))).toBeUndefined();
    for (const n of [3, 4, 5]) await keepCopy(key(n), big(300));
    // 24 MB with key 2 gone: key 1, the oldest, stays.
    expect(cachedCopy(key(1))).toBeDefined();
  });
});
