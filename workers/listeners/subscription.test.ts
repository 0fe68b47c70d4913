import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { database } from "../db";
import { feedTokenOf, subscribeVia } from "../../test/support/listeners";
import { listenerByFeedToken, listenerByToken } from "../kernel/listener-tokens";

describe("POST /v1/listeners/subscribe", () => {
  it("answers 201 with a token and a feed URL that carries the private feed token, not the account token", async () => {
    const body = await subscribeVia("Ann@Example.test", ["tech", "parenting"]);
    expect(body.email).toBe("ann@example.test");
    expect(body.verticals).toEqual(["tech", "young_moms"]);
    expect(body.already_subscribed).toBe(false);
    expect(body.token.length).toBeGreaterThanOrEqual(43);
    expect(body.feed_url).toMatch(/^https:\/\/api\.test\/v1\/podcasts\/u\/[A-Za-z0-9_-]{43}\.xml$/);
    const feedToken = feedTokenOf(body.feed_url);
    expect(feedToken).not.toBe(body.token);
    const db = database(env);
    expect((await listenerByFeedToken(db, feedToken))?.email).toBe("ann@example.test");
    expect(await listenerByFeedToken(db, body.token)).toBeUndefined();
  });

  it("is idempotent on the e-mail for the creating client (its Idempotency-Key): same token and feed URL, verticals replaced", async () => {
    const first = await subscribeVia("bob@example.test", ["tech"], "bob-key");
    const again = await subscribeVia("BOB@example.test", ["finance", "science"], "bob-key");
    expect(again.token).toBe(first.token);
    expect(again.feed_url).toBe(first.feed_url);
    expect(again.already_subscribed).toBe(true);
    expect(again.verticals).toEqual(["finance", "science"]);
    const prefs = await (await call(`/v1/listeners/${first.token}`)).json();
    expect(prefs).toMatchObject({ verticals: ["finance", "science"] });
  });

  it("gives one row to concurrent subscribes of one address", async () => {
    const results = await Promise.all([1, 2, 3].map(() => subscribeVia("race@example.test", ["tech"], "race-key")));
    expect(new Set(results.map((r) => r.token)).size).toBe(1);
    const { results: rows } = await env.DB.prepare("select count(*) as n from listeners").all<{ n: number }>();
    expect(rows[0].n).toBe(1);
  });

  it.each([
    ["a vertical outside the catalog", { email: "x@example.test", verticals: ["astrology"] }],
    ["a bad e-mail", { email: "not-an-email", verticals: [] }],
    ["a wallet placeholder address under .invalid", { email: "0xabc@wallet.invalid", verticals: [] }],
  ])("rejects %s with 422 and writes nothing", async (_, body) => {
    const res = await call("/v1/listeners/subscribe", jsonBody("POST", body));
    expect(res.status).toBe(422);
    expect((await env.DB.prepare("select count(*) as n from listeners").first<{ n: number }>())?.n).toBe(0);
  });

  it("stores tokens only as a SHA-256 and an encrypted copy", async () => {
    const body = await subscribeVia("stored@example.test");
    const row = await env.DB.prepare("select * from listeners").first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain(body.token);
    expect(JSON.stringify(row)).not.toContain(feedTokenOf(body.feed_url));
    expect((await listenerByToken(database(env), body.token))?.email).toBe("stored@example.test");
  });
});

describe("POST /v1/alpha/signup", () => {
  it("answers 201, and 201 with already_registered on a repeat", async () => {
    const first = await call("/v1/alpha/signup", jsonBody("POST", { email: "early@example.test", name: "Early" }));
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ email: "early@example.test", already_registered: false });
    const again = await call("/v1/alpha/signup", jsonBody("POST", { email: "Early@example.test" }));
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ email: "early@example.test", already_registered: true });
  });
});

describe("GET /v1/listeners/verticals", () => {
  it("lists the catalog with parenting as an alias of young_moms", async () => {
    const res = await call("/v1/listeners/verticals");
    expect(res.status).toBe(200);
    const { verticals } = (await res.json()) as { verticals: { slug: string; aliases: string[] }[] };
    const slugs = verticals.map((v) => v.slug);
    for (const s of ["tech", "finance", "science", "media", "sports", "culture", "health", "young_moms", "news"]) expect(slugs).toContain(s);
    expect(verticals.find((v) => v.slug === "young_moms")?.aliases).toContain("parenting");
  });
});

describe("preferences", () => {
  it("PATCH changes only the fields present", async () => {
    const { token } = await subscribeVia("prefs@example.test", ["tech"]);
    const res = await call(`/v1/listeners/${token}`, jsonBody("PATCH", { timezone: "Europe/Paris" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ timezone: "Europe/Paris", verticals: ["tech"], active: true, wallet_address: null });
    const next = await call(`/v1/listeners/${token}`, jsonBody("PATCH", { verticals: ["markets"], active: false }));
    expect(await next.json()).toMatchObject({ timezone: "Europe/Paris", verticals: ["finance"], active: false });
  });

  it("PATCH rejects an unknown time zone with 422 and changes nothing", async () => {
    const { token } = await subscribeVia("tz@example.test");
    const res = await call(`/v1/listeners/${token}`, jsonBody("PATCH", { timezone: "Mars/Olympus", verticals: ["tech"] }));
    expect(res.status).toBe(422);
    expect(await (await call(`/v1/listeners/${token}`)).json()).toMatchObject({ timezone: "UTC", verticals: [] });
  });

  it("PATCH answers 409 for an intake e-mail another listener holds, and keeps one's own", async () => {
    const ann = await subscribeVia("intake-ann@example.test");
    const bob = await subscribeVia("intake-bob@example.test");
    const own = await call(`/v1/listeners/${ann.token}`, jsonBody("PATCH", { intake_listener_email: "shared@example.test" }));
    expect(own.status).toBe(200);
    const again = await call(`/v1/listeners/${ann.token}`, jsonBody("PATCH", { intake_listener_email: "shared@example.test" }));
    expect(again.status).toBe(200);
    const taken = await call(`/v1/listeners/${bob.token}`, jsonBody("PATCH", { intake_listener_email: "shared@example.test", timezone: "Europe/Paris" }));
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ code: "conflict", detail: "this intake e-mail belongs to another listener" });
    expect(await (await call(`/v1/listeners/${bob.token}`)).json()).toMatchObject({ timezone: "UTC", intake_listener_email: null });
  });

  it("answers 404 for an unknown token", async () => {
    expect((await call("/v1/listeners/no-such-token")).status).toBe(404);
  });
});

describe("PUT /v1/listeners/{token}/preferences/vertical", () => {
  it("pins a vertical, canonicalises a legacy alias, and clears with null", async () => {
    const { token } = await subscribeVia("pin@example.test");
    const pin = await call(`/v1/listeners/${token}/preferences/vertical`, jsonBody("PUT", { vertical: "parenting" }));
    expect(pin.status).toBe(200);
    expect(await pin.json()).toEqual({ preferred_vertical: "young_moms" });
    const legacy = await call(`/v1/listeners/${token}/preferences/vertical`, jsonBody("PUT", { vertical: "Technology" }));
    expect(await legacy.json()).toEqual({ preferred_vertical: "tech" });
    const clear = await call(`/v1/listeners/${token}/preferences/vertical`, jsonBody("PUT", { vertical: null }));
    expect(await clear.json()).toEqual({ preferred_vertical: null });
  });

  it("answers 400 for a slug outside the catalog and its aliases, and keeps the pin", async () => {
    const { token } = await subscribeVia("pin400@example.test");
    await call(`/v1/listeners/${token}/preferences/vertical`, jsonBody("PUT", { vertical: "tech" }));
    const res = await call(`/v1/listeners/${token}/preferences/vertical`, jsonBody("PUT", { vertical: "astrology" }));
    expect(res.status).toBe(400);
    expect(await (await call(`/v1/listeners/${token}`)).json()).toMatchObject({ preferred_vertical: "tech" });
  });
});

describe("GET /v1/listeners/{token}/private-feed", () => {
  it("returns the subscribe feed URL, the same on every call", async () => {
    const sub = await subscribeVia("pf@example.test");
    const a = await (await call(`/v1/listeners/${sub.token}/private-feed`)).json();
    const b = await (await call(`/v1/listeners/${sub.token}/private-feed`)).json();
    expect(a).toMatchObject({ feed_url: sub.feed_url });
    expect(b).toEqual(a);
    expect((a as { instructions: string }).instructions).toMatch(/podcast app/);
  });

  it("mints the feed token on first call for a listener that has none", async () => {
    const sub = await subscribeVia("legacy@example.test");
    await env.DB.prepare("update listeners set private_feed_token_hash = null, private_feed_token_encrypted = null").run();
    const first = (await (await call(`/v1/listeners/${sub.token}/private-feed`)).json()) as { feed_url: string };
    expect(first.feed_url).not.toBe(sub.feed_url);
    const second = (await (await call(`/v1/listeners/${sub.token}/private-feed`)).json()) as { feed_url: string };
    expect(second.feed_url).toBe(first.feed_url);
    expect((await listenerByFeedToken(database(env), feedTokenOf(first.feed_url)))?.email).toBe("legacy@example.test");
  });
});
