import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { database } from "../db";
import { feedTokenOf, subscribeVia, waitForOutbox } from "../../test/support/listeners";
import { listenerByFeedToken } from "../kernel/listener-tokens";

/** Every path that takes the account token: each must answer 404 once the token is gone. */
const LISTENER_PATHS: [string, (token: string) => [string, RequestInit?]][] = [
  ["GET preferences", (t) => [`/v1/listeners/${t}`]],
  ["PATCH preferences", (t) => [`/v1/listeners/${t}`, jsonBody("PATCH", { timezone: "UTC" })]],
  ["PUT preferred vertical", (t) => [`/v1/listeners/${t}/preferences/vertical`, jsonBody("PUT", { vertical: null })]],
  ["GET queue", (t) => [`/v1/listeners/${t}/queue`]],
  ["GET feed", (t) => [`/v1/listeners/${t}/feed`]],
  ["GET private-feed", (t) => [`/v1/listeners/${t}/private-feed`]],
  ["POST click-through", (t) => [`/v1/listeners/${t}/clickthrough/partner-paywall`, jsonBody("POST", { publisher: "P" })]],
  ["GET flo", (t) => [`/v1/listener/${t}/flo`]],
  ["PUT flo", (t) => [`/v1/listener/${t}/flo`, jsonBody("PUT", { blocks: [{ id: "night", tone: "calm" }] })]],
  ["GET flo/now", (t) => [`/v1/listener/${t}/flo/now`]],
  ["POST rotate", (t) => [`/v1/listeners/${t}/rotate`, { method: "POST" }]],
  ["DELETE", (t) => [`/v1/listeners/${t}`, { method: "DELETE" }]],
];

async function expectAllGone(token: string) {
  for (const [name, make] of LISTENER_PATHS) {
    const [path, init] = make(token);
    const res = await call(path, init);
    expect(res.status, name).toBe(404);
  }
}

describe("POST /v1/listeners/{token}/rotate (docs/rules.md 3)", () => {
  it("returns a new token and feed URL; the old ones fail at once on every listener path and feed", async () => {
    const sub = await subscribeVia("rot@example.test", ["tech"]);
    const res = await call(`/v1/listeners/${sub.token}/rotate`, { method: "POST" });
    expect(res.status).toBe(200);
    const rotated = (await res.json()) as { token: string; feed_url: string };
    expect(rotated.token).not.toBe(sub.token);
    expect(rotated.feed_url).not.toBe(sub.feed_url);
    expect(feedTokenOf(rotated.feed_url)).not.toBe(rotated.token);

    await expectAllGone(sub.token);
    expect((await call(new URL(sub.feed_url).pathname)).status).toBe(404);
    expect((await call(`/v1/podcasts/${sub.token}.xml`)).status).toBe(404);
    expect(await listenerByFeedToken(database(env), feedTokenOf(sub.feed_url))).toBeUndefined();

    expect((await call(`/v1/listeners/${rotated.token}`)).status).toBe(200);
    expect((await call(new URL(rotated.feed_url).pathname)).status).toBe(200);
    expect(await (await call(`/v1/listeners/${rotated.token}/private-feed`)).json()).toMatchObject({ feed_url: rotated.feed_url });
  });

  it("lets only one of two concurrent rotates win", async () => {
    const sub = await subscribeVia("rot2@example.test");
    const statuses = await Promise.all([1, 2].map(async () => (await call(`/v1/listeners/${sub.token}/rotate`, { method: "POST" })).status));
    expect(statuses.sort()).toEqual([200, 404]);
  });
});

describe("DELETE /v1/listeners/{token} (hard delete)", () => {
  it("removes the listener and its own rows in one go; the token and feed URL answer 404 at once", async () => {
    const sub = await subscribeVia("del@example.test", ["tech"]);
    const article = await addArticle({ vertical: "tech" });
    const db = database(env);
    const listener = (await db.query.listeners.findFirst())!;
    await call(`/v1/listener/${sub.token}/flo`, jsonBody("PUT", { blocks: [{ id: "night", manual_order: [article.slug] }] }));
    await call("/v1/auth/listener-magic-link", jsonBody("POST", { email: "del@example.test" }));
    await waitForOutbox(1);
    expect((await env.DB.prepare("select count(*) as n from magic_tokens").first<{ n: number }>())!.n).toBe(1);
    await call("/v1/plays", jsonBody("POST", { article_slug: article.slug, amount_micros: 1000, listener_token: sub.token }, apiKeyHeaders));
    await call(`/v1/listeners/${sub.token}/clickthrough/partner-paywall`, jsonBody("POST", { publisher: "P" }));
    await addArticle({ visibility: "listener_private", ownerListenerId: listener.id });

    const res = await call(`/v1/listeners/${sub.token}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });

    await expectAllGone(sub.token);
    expect((await call(new URL(sub.feed_url).pathname)).status).toBe(404);
    const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    expect(await count("select count(*) as n from listeners")).toBe(0);
    expect(await count("select count(*) as n from flo_overrides")).toBe(0);
    expect(await count("select count(*) as n from magic_tokens")).toBe(0);
    // The accounting stays, unlinked from the person.
    expect(await count("select count(*) as n from plays where listener_id is null")).toBe(1);
    expect(await count("select count(*) as n from ledger_entries where listener_id is null")).toBe(4);
    expect(await count("select count(*) as n from articles where owner_listener_id is not null")).toBe(0);
  });

  it("lets the address subscribe again afresh, with a new token", async () => {
    const first = await subscribeVia("again@example.test");
    await call(`/v1/listeners/${first.token}`, { method: "DELETE" });
    const second = await subscribeVia("again@example.test");
    expect(second.already_subscribed).toBe(false);
    expect(second.token).not.toBe(first.token);
  });
});
