import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { callWith } from "../../test/support/narration";
import { database, listeners } from "../db";
import { mintToken } from "../kernel/listener-tokens";
import { addArticle, addListener, addPlays, HOUR } from "../../test/support/articles";

type Feed = { items: { slug: string; similarity: number | null; stub: boolean }[]; ranking: string };
const ago = (ms: number) => new Date(Date.now() - ms);
const feed = async (qs: string) => {
  const res = await call(`/v1/stories/feed?${qs}`);
  expect(res.status, qs).toBe(200);
  return res.json<Feed>();
};

describe("GET /v1/stories/feed: filters", () => {
  it("lists newest first and defaults to audio-ready articles only", async () => {
    const older = await addArticle({ audioKey: "k1", createdAt: ago(2 * HOUR) });
    const newer = await addArticle({ audioKey: "k2", createdAt: ago(HOUR) });
    const silent = await addArticle({ audioKey: null });
    expect((await feed("")).items.map((i) => i.slug)).toEqual([newer.slug, older.slug]);
    expect((await feed("audio_ready_only=false")).items.map((i) => i.slug)).toEqual([silent.slug, newer.slug, older.slug]);
  });

  it("applies vertical, curated_only, exclude_stubs, limit and offset", async () => {
    const curated = await addArticle({ audioKey: "k", curated: true, vertical: "science", createdAt: ago(3 * HOUR) });
    const stub = await addArticle({ audioKey: "k", visibility: "publisher_only", vertical: "science", createdAt: ago(2 * HOUR) });
    const plain = await addArticle({ audioKey: "k", vertical: "finance", createdAt: ago(HOUR) });
    expect((await feed("curated_only=true")).items.map((i) => i.slug)).toEqual([curated.slug]);
    expect((await feed("vertical=science")).items.map((i) => i.slug)).toEqual([stub.slug, curated.slug]);
    expect((await feed("exclude_stubs=true")).items.map((i) => i.slug)).toEqual([plain.slug, curated.slug]);
    const withStub = await feed("");
    expect(withStub.items.find((i) => i.slug === stub.slug)).toMatchObject({ stub: true, noindex: true });
    expect((await feed("limit=1&offset=1")).items.map((i) => i.slug)).toEqual([stub.slug]);
  });

  it("shows a listener_private article only to its owner", async () => {
    const owner = await addListener();
    const other = await addListener();
    const mine = await addArticle({ audioKey: "c".repeat(64), visibility: "listener_private", ownerListenerId: owner.listener.id });
    expect((await feed("")).items).toEqual([]);
    expect((await feed(`listener_token=${other.token}`)).items).toEqual([]);
    expect((await feed(`listener_token=${owner.token}`)).items.map((i) => i.slug)).toEqual([mine.slug]);
    expect((await feed(`listener_token=${owner.token}&exclude_stubs=true`)).items).toEqual([]);
  });

  it("answers 422 outside every limit of docs/rules.md 8", async () => {
    const bad = [
      `vertical=${"v".repeat(81)}`,
      "limit=0",
      "limit=101",
      "offset=-1",
      "offset=10001",
      `listener_token=${"t".repeat(65)}`,
      "curated_only=x",
      "audio_ready_only=x",
      "personalized=x",
      "exclude_stubs=x",
    ];
    for (const qs of bad) expect((await call(`/v1/stories/feed?${qs}`)).status, qs).toBe(422);
    for (const qs of ["limit=1", "limit=100", "offset=10000", `vertical=${"v".repeat(80)}`]) await feed(qs);
  });
});

describe("GET /v1/stories/feed: personalized (feed rule 2)", () => {
  it("ranks by similarity to the taste vector built from verticals, plays and forwards", async () => {
    const { listener, token } = await addListener({ verticals: ["science"] });
    const sports = await addArticle({ audioKey: "k", vertical: "sports", createdAt: ago(HOUR) });
    const science = await addArticle({ audioKey: "k", vertical: "science", createdAt: ago(3 * HOUR) });
    const finance = await addArticle({ audioKey: "k", vertical: "finance", host: "markets", createdAt: ago(2 * HOUR) });
    await addPlays(finance.id, 2, ago(HOUR), listener.id);

    const ranked = await feed(`personalized=true&listener_token=${token}`);
    expect(ranked.ranking).toBe("similarity");
    expect(ranked.items.map((i) => i.slug)).toEqual([science.slug, finance.slug, sports.slug]);
    expect(ranked.items[0].similarity).toBeGreaterThan(ranked.items[1].similarity!);
    expect(ranked.items[2].similarity).toBe(0);
    const stored = await database(env).query.listeners.findFirst({ where: eq(listeners.id, listener.id) });
    expect(stored?.tasteVector?.length).toBeGreaterThan(0);

    // Without personalized, the same listener gets recency.
    expect((await feed(`listener_token=${token}`)).items.map((i) => i.slug)).toEqual([sports.slug, finance.slug, science.slug]);
  });

  it("falls back to recency without a vector or without a token", async () => {
    const { token } = await addListener();
    const older = await addArticle({ audioKey: "k", vertical: "science", createdAt: ago(2 * HOUR) });
    const newer = await addArticle({ audioKey: "k", vertical: "sports", createdAt: ago(HOUR) });
    for (const qs of [`personalized=true&listener_token=${token}`, "personalized=true"]) {
      const got = await feed(qs);
      expect(got.ranking).toBe("recency");
      expect(got.items.map((i) => [i.slug, i.similarity])).toEqual([
        [newer.slug, null],
        [older.slug, null],
      ]);
    }
  });

  it("answers a well-formed unknown token as an anonymous caller, exactly as a known token without a vector", async () => {
    // A 404 would tell anyone whether a token exists; the feed rule falls back to recency instead.
    const { token } = await addListener();
    const { token: unknown } = await mintToken(env);
    const older = await addArticle({ audioKey: "k", createdAt: ago(2 * HOUR) });
    const newer = await addArticle({ audioKey: "k", createdAt: ago(HOUR) });
    for (const qs of ["", "personalized=true&"]) {
      const [known, stranger] = await Promise.all([token, unknown].map((t) => call(`/v1/stories/feed?${qs}listener_token=${t}`)));
      expect([known.status, stranger.status], qs).toEqual([200, 200]);
      expect(stranger.headers.get("cache-control")).toBe(known.headers.get("cache-control"));
      const body = await stranger.json<Feed>();
      expect(body).toEqual(await known.json());
      expect(body).toEqual(await feed(qs));
      expect(body.ranking).toBe("recency");
      expect(body.items.map((i) => i.slug)).toEqual([newer.slug, older.slug]);
    }
  });

  it("uses a stored vector as it is", async () => {
    const { listener, token } = await addListener({ verticals: ["science"] });
    const sports = await addArticle({ audioKey: "k", vertical: "sports", createdAt: ago(2 * HOUR) });
    await addArticle({ audioKey: "k", vertical: "science", createdAt: ago(HOUR) });
    const sportsOnly = Array.from({ length: 16 }, (_, i) => (i === 4 ? 1 : 0));
    await database(env).update(listeners).set({ tasteVector: sportsOnly }).where(eq(listeners.id, listener.id));
    // callWith returns once the work after the response is done.
    const got = await (await callWith(null, `/v1/stories/feed?personalized=true&listener_token=${token}`)).json<Feed>();
    expect(got.items[0]).toMatchObject({ slug: sports.slug, similarity: 1 });
    // ...and rebuilds it after the response from the listener's current signals (science).
    const stored = (await database(env).query.listeners.findFirst({ where: eq(listeners.id, listener.id) }))?.tasteVector;
    expect(stored?.[2]).toBe(1);
  });
});

describe("GET /v1/stories/feed?vertical=trending", () => {
  it("ranks every topic by the trending score through the trending cache, with the feed's filters", async () => {
    const played = await addArticle({ audioKey: "k", vertical: "finance", createdAt: ago(20 * HOUR) });
    const fresh = await addArticle({ audioKey: "k", vertical: "science", createdAt: ago(HOUR) });
    const stub = await addArticle({ audioKey: "k", visibility: "publisher_only", createdAt: ago(2 * HOUR) });
    await addPlays(played.id, 100, ago(HOUR));
    const got = await feed("vertical=trending&audio_ready_only=true");
    expect(got.ranking).toBe("trending");
    expect(got.items.map((i) => i.slug)).toEqual([played.slug, fresh.slug, stub.slug]);
    expect((await feed("vertical=trending&exclude_stubs=true&limit=5")).items.map((i) => i.slug)).toEqual([played.slug, fresh.slug]);
  });
});

describe("GET /v1/stories/feed: edge cache", () => {
  it("serves an anonymous page from the edge cache for 30 s, whatever the parameter spelling; token pages never", async () => {
    const { token } = await addListener();
    const first = await addArticle({ audioKey: "k", createdAt: ago(HOUR) });
    // The cache write runs after the response: callWith returns once it is done.
    const res = await callWith(null, "/v1/stories/feed?limit=5&offset=0");
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
    expect((await res.json<Feed>()).items.map((i) => i.slug)).toEqual([first.slug]);
    const second = await addArticle({ audioKey: "k" });
    expect((await feed("offset=0&limit=5&audio_ready_only=true")).items.map((i) => i.slug)).toEqual([first.slug]);
    const personal = await call(`/v1/stories/feed?limit=5&listener_token=${token}`);
    expect(personal.headers.get("cache-control")).toBe("private, no-store");
    expect((await personal.json<Feed>()).items.map((i) => i.slug)).toEqual([second.slug, first.slug]);
  });
});
