import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminHeaders, call } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { articles, database } from "../db";
import { cachedSearch } from "./search-service";
import { addArticle, addListener } from "../../test/support/articles";

const bypass = { headers: { "x-service-search-cache": "bypass" } };
type Body = {
  results: { slug: string; snippet: string; stub: boolean }[];
  suggestions: unknown[];
  degraded: boolean;
  suggestions_provider: string | null;
  suggestions_status: string;
};

/** Blocks the network: any fetch fails as it would offline. */
function offline() {
  return vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("fetch failed"));
}

afterEach(() => vi.restoreAllMocks());

describe("GET /v1/stories/search: ranking and snippets", () => {
  it("ranks a title match above a body match, stems terms and marks them in the snippet", async () => {
    const body = await addArticle({ title: "Weekly roundup", bodyText: "Among other things, central banks are raising rates again." });
    const title = await addArticle({ title: "Central bank raises rates", bodyText: "A short note." });
    const res = await call("/v1/stories/search?q=bank%20raise&expand=false", bypass);
    expect(res.status).toBe(200);
    const got = await res.json<Body>();
    expect(got.results.map((r) => r.slug)).toEqual([title.slug, body.slug]);
    expect(got.results[1].snippet).toContain("<mark>banks</mark> are <mark>raising</mark>");
  });

  it("escapes article text in snippets", async () => {
    await addArticle({ title: "Markup", bodyText: "the <script>alert(1)</script> payload" });
    const got = await (await call("/v1/stories/search?q=payload&expand=false", bypass)).json<Body>();
    expect(got.results[0].snippet).toContain("&lt;script&gt;");
    expect(got.results[0].snippet).not.toContain("<script>");
  });

  it("treats operators and unbalanced quotes in q as plain text", async () => {
    await addArticle({ title: "Quote test", bodyText: "he said hello" });
    for (const q of ['"hello', 'hello"', "hello AND OR NOT", "title:hello", "hello*", "(hello", '"', "-", "NEAR(hello"]) {
      const res = await call(`/v1/stories/search?q=${encodeURIComponent(q)}&expand=false`, bypass);
      expect(res.status, q).toBe(200);
    }
  });

  it("filters by vertical and pages with limit and offset", async () => {
    for (let i = 0; i < 5; i++) await addArticle({ title: `Solar report ${i}`, vertical: i < 3 ? "science" : "finance" });
    const science = await (await call("/v1/stories/search?q=solar&vertical=science&expand=false", bypass)).json<Body>();
    expect(science.results).toHaveLength(3);
    const all = await (await call("/v1/stories/search?q=solar&expand=false&limit=5", bypass)).json<Body>();
    const page = await (await call("/v1/stories/search?q=solar&expand=false&limit=2&offset=2", bypass)).json<Body>();
    expect(page.results.map((r) => r.slug)).toEqual(all.results.slice(2, 4).map((r) => r.slug));
  });
});

describe("GET /v1/stories/search: visibility", () => {
  it("never returns listener_private articles, and finds stubs by title only without leaking their text", async () => {
    const { listener, token } = await addListener();
    await addArticle({ title: "Private comet notes", bodyText: "comet secret", visibility: "listener_private", ownerListenerId: listener.id });
    const stub = await addArticle({ title: "Comet sighting", bodyText: "paywalled comet details", visibility: "publisher_only" });
    await addArticle({ title: "Other", bodyText: "only the paywalled body mentions nebula", visibility: "publisher_only" });
    const got = await (await call("/v1/stories/search?q=comet&expand=false", bypass)).json<Body>();
    expect(got.results.map((r) => r.slug)).toEqual([stub.slug]);
    expect(got.results[0]).toMatchObject({ stub: true, noindex: true, summary: "" });
    expect(got.results[0].snippet).toBe("<mark>Comet</mark> sighting");
    expect(JSON.stringify(got)).not.toMatch(/secret|paywalled/);
    const bodyOnly = await (await call("/v1/stories/search?q=nebula&expand=false", bypass)).json<Body>();
    expect(bodyOnly.results).toEqual([]);
    // Search takes no listener token: even the owner's query does not surface it.
    const owner = await call(`/v1/stories/search?q=secret&expand=false&listener_token=${token}`, bypass);
    expect(owner.status).toBe(200);
    expect((await owner.json<Body>()).results).toEqual([]);
  });
});

describe("GET /v1/stories/search: exact pages behind filters", () => {
  it("finds a public hit ranked below a full ranking window of private matches", async () => {
    const { listener } = await addListener();
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 450)
       insert into articles (slug, title, publisher, vertical, body_text, visibility, owner_listener_id, content_hash)
       select 'private-zebra-' || i, 'Zebra zebra crossing ' || i, 'P', 'tech', 'zebra', 'listener_private', ?, 'h' || i from n`,
    )
      .bind(listener.id)
      .run();
    const open = await addArticle({ title: "Crossings", bodyText: "A lone zebra in a long body of other words entirely." });
    const got = await (await call("/v1/stories/search?q=zebra&expand=false", bypass)).json<Body>();
    expect(got.results.map((r) => r.slug)).toEqual([open.slug]);
  });
});

describe("GET /v1/stories/search: validation (docs/rules.md 8)", () => {
  it("answers 422 outside every limit and 200 at the edges", async () => {
    const bad = [
      "",
      "q=",
      `q=${"a".repeat(201)}`,
      `q=a&vertical=${"v".repeat(81)}`,
      "q=a&limit=0",
      "q=a&limit=101",
      "q=a&limit=1.5",
      "q=a&offset=-1",
      "q=a&offset=10001",
      "q=a&expand=maybe",
    ];
    for (const qs of bad) expect((await call(`/v1/stories/search?${qs}`, bypass)).status, qs).toBe(422);
    expect((await call("/v1/stories/search?q=a", { headers: { "x-service-search-cache": "skip" } })).status).toBe(422);
    const edges = [`q=${"a".repeat(200)}`, `q=a&vertical=${"v".repeat(80)}`, "q=a&limit=1", "q=a&limit=100", "q=a&offset=0", "q=a&offset=10000"];
    for (const qs of edges) expect((await call(`/v1/stories/search?${qs}&expand=false`, bypass)).status, qs).toBe(200);
  });
});

describe("GET /v1/stories/search: rule 1, external suggestions", () => {
  it("asks the keyless GDELT DOC API when under 5 local results, and stores nothing", async () => {
    await addArticle({ title: "Glacier melt" });
    // Built per call: a body made in the test's context cannot be read inside the Worker's request.
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({
        articles: [{ title: "Glaciers retreat", url: "https://news.example/glaciers", domain: "news.example", seendate: "20261120T081500Z" }],
      }),
    );
    const got = await (await call("/v1/stories/search?q=glacier", bypass)).json<Body>();
    expect(spy).toHaveBeenCalledOnce();
    const sent = spy.mock.calls[0][0] as Request;
    const url = new URL(sent.url);
    expect(url.origin + url.pathname).toBe("https://api.gdeltproject.org/api/v2/doc/doc");
    expect(Object.fromEntries(url.searchParams)).toEqual({ query: "glacier", mode: "ArtList", format: "json", maxrecords: "10", sort: "DateDesc" });
    expect(got).toMatchObject({
      degraded: false,
      suggestions_status: "ok",
      suggestions_provider: "gdelt",
      suggestions: [{ title: "Glaciers retreat", url: "https://news.example/glaciers", source: "news.example", published_at: "2026-11-20T08:15:00Z" }],
    });
    expect(got.results).toHaveLength(1);
    expect(await database(env).$count(articles)).toBe(1);
  });

  it("uses newsapi.org with the key in a header when NEWS_API_KEY is set", async () => {
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValue(
        Response.json({ status: "ok", articles: [{ title: "T", url: "https://n.example/t", publishedAt: "2026-11-20T08:00:00Z", source: { name: "N" } }] }),
      );
    const e = { ...env, NEWS_PROVIDER: "newsapi", NEWS_API_KEY: "news-key" };
    const { body } = await cachedSearch(e, { q: "tariffs", limit: 20, offset: 0, expand: true }, true);
    const sent = spy.mock.calls[0][0] as Request;
    expect(sent.url).toBe("https://newsapi.org/v2/everything?q=tariffs&pageSize=10&sortBy=publishedAt");
    expect(sent.headers.get("x-api-key")).toBe("news-key");
    expect(body.suggestions).toEqual([{ title: "T", url: "https://n.example/t", source: "N", published_at: "2026-11-20T08:00:00Z" }]);
  });

  it("does not ask when there are 5 local results, expand is false or q has no word", async () => {
    for (let i = 0; i < 5; i++) await addArticle({ title: `Harbour news ${i}` });
    const spy = offline();
    await call("/v1/stories/search?q=harbour", bypass);
    await call("/v1/stories/search?q=nothing-here&expand=false", bypass);
    await call("/v1/stories/search?q=%20%22%20", bypass);
    expect(spy).not.toHaveBeenCalled();
  });

  it("marks the response degraded when the configured provider is unreachable", async () => {
    offline();
    const got = await (await call("/v1/stories/search?q=offline-topic", bypass)).json<Body>();
    expect(got).toMatchObject({ degraded: true, suggestions_status: "failed", suggestions_provider: "gdelt", suggestions: [] });
  });

  it("says suggestions are off, not degraded, when no provider is configured, and asks nobody", async () => {
    const spy = offline();
    const { NEWS_PROVIDER: _, ...unset } = env;
    for (const [i, e] of ([{ ...env, NEWS_PROVIDER: "off" }, unset] as Env[]).entries()) {
      const p = { q: `offline-by-design-${i}`, limit: 20, offset: 0, expand: true };
      const { body } = await cachedSearch(e, p, false);
      expect(body).toMatchObject({ degraded: false, suggestions_status: "off", suggestions_provider: null, suggestions: [] });
      // Not degraded, so cached like any complete answer.
      expect((await cachedSearch(e, p, false)).cache).toBe("hit");
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it("says skipped when a configured provider was not needed", async () => {
    for (let i = 0; i < 5; i++) await addArticle({ title: `Estuary news ${i}` });
    const got = await (await call("/v1/stories/search?q=estuary", bypass)).json<Body>();
    expect(got).toMatchObject({ degraded: false, suggestions_status: "skipped", suggestions_provider: null });
  });

  it("refuses newsapi without its key at configuration, naming NEWS_PROVIDER", async () => {
    const e = { ...env, NEWS_PROVIDER: "newsapi", NEWS_API_KEY: "" };
    await expect(cachedSearch(e, { q: "x", limit: 20, offset: 0, expand: true }, true)).rejects.toThrow(/NEWS_PROVIDER/);
  });
});

describe("GET /v1/stories/search: rules 2 and 3, the cache", () => {
  const stats = async () => (await call("/v1/admin/search-cache/stats", { headers: adminHeaders })).json<Record<string, number>>();

  it("misses, then hits for the same key; bypass skips it; another key misses", async () => {
    const before = await stats();
    await addArticle({ title: "Cache kiwi" });
    const first = await call("/v1/stories/search?q=kiwi&expand=false");
    expect(first.headers.get("x-service-search-cache")).toBe("miss");
    await addArticle({ title: "Cache kiwi two" });
    const second = await call("/v1/stories/search?q=kiwi&expand=false");
    expect(second.headers.get("x-service-search-cache")).toBe("hit");
    expect((await second.json<Body>()).results).toHaveLength(1);
    const skipped = await call("/v1/stories/search?q=kiwi&expand=false", bypass);
    expect(skipped.headers.get("x-service-search-cache")).toBe("bypass");
    expect((await skipped.json<Body>()).results).toHaveLength(2);
    expect((await call("/v1/stories/search?q=kiwi&expand=false&offset=1")).headers.get("x-service-search-cache")).toBe("miss");
    expect((await call("/v1/stories/search?q=kiwi&expand=false&vertical=tech")).headers.get("x-service-search-cache")).toBe("miss");
    const after = await stats();
    expect(after.hits - before.hits).toBe(1);
    expect(after.misses - before.misses).toBe(3);
    expect(after).toMatchObject({ ttl_seconds: 60, capacity: 500 });
    expect(after.entries).toBeGreaterThanOrEqual(3);
  });

  it("does not cache a degraded response", async () => {
    offline();
    expect((await call("/v1/stories/search?q=degraded-kiwi")).headers.get("x-service-search-cache")).toBe("miss");
    expect((await call("/v1/stories/search?q=degraded-kiwi")).headers.get("x-service-search-cache")).toBe("miss");
  });

  it("caches degraded responses when SEARCH_CACHE_DEGRADED is true", async () => {
    offline();
    const e = { ...env, SEARCH_CACHE_DEGRADED: "true" };
    const p = { q: "degraded-lime", limit: 20, offset: 0, expand: true };
    expect((await cachedSearch(e, p, false)).cache).toBe("miss");
    expect((await cachedSearch(e, p, false)).cache).toBe("hit");
  });

  it("is disabled by a TTL of 0", async () => {
    const e = { ...env, SEARCH_CACHE_TTL_SECONDS: "0" };
    const p = { q: "ttl-zero", limit: 20, offset: 0, expand: false };
    expect((await cachedSearch(e, p, false)).cache).toBe("miss");
    expect((await cachedSearch(e, p, false)).cache).toBe("miss");
  });

  it("evicts the least recently used entry beyond capacity", async () => {
    const e = { ...env, SEARCH_CACHE_CAPACITY: "2" };
    const ask = (q: string) => cachedSearch(e, { q, limit: 20, offset: 0, expand: false }, false);
    const before = await stats();
    await ask("lru-a");
    await ask("lru-b");
    await ask("lru-a");
    await ask("lru-c");
    expect((await ask("lru-a")).cache).toBe("hit");
    expect((await ask("lru-b")).cache).toBe("miss");
    expect((await stats()).evictions - before.evictions).toBeGreaterThanOrEqual(1);
  });

  it("stats need the admin token", async () => {
    expect((await call("/v1/admin/search-cache/stats")).status).toBe(401);
    expect((await call("/v1/admin/trending-cache/stats", { headers: { "x-service-email-token": testVars.LEGACY_INTAKE_TOKEN } })).status).toBe(200);
  });
});
