import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { articles, database } from "../db";
import { addListener } from "../../test/support/articles";

/** docs/api-conventions.md "Rate limits": an address forwards at most 30 articles an hour; written out so that a changed limit fails here. */
const FORWARDS_PER_HOUR_PER_ADDRESS = 30;

describe("POST /v1/listeners/{token}/forward", () => {
  it("adds a listener_private article owned by the caller, renderable and invisible to others", async () => {
    const owner = await addListener();
    const res = await call(
      `/v1/listeners/${owner.token}/forward`,
      jsonBody("POST", { url: "https://www.example.com/story/1", title: "A forwarded story", text: "Story text to narrate." }),
    );
    expect(res.status).toBe(201);
    const body = await res.json<{ slug: string }>();
    expect(body).toMatchObject({
      title: "A forwarded story",
      publisher: "example.com",
      visibility: "listener_private",
      noindex: true,
      body_text: "Story text to narrate.",
    });
    expect(res.headers.get("location")).toBe(`/v1/articles/${body.slug}`);
    const row = await database(env).query.articles.findFirst({ where: eq(articles.slug, body.slug) });
    expect(row).toMatchObject({ ownerListenerId: owner.listener.id, visibility: "listener_private", audioKey: null });
    expect(row?.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(`/v1/articles/${body.slug}`)).status).toBe(404);
  });

  it("returns the existing article when the same URL is forwarded again", async () => {
    const owner = await addListener();
    const first = await call(`/v1/listeners/${owner.token}/forward`, jsonBody("POST", { url: "https://example.com/a" }));
    const again = await call(`/v1/listeners/${owner.token}/forward`, jsonBody("POST", { url: "https://example.com/a" }));
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect((await again.json<{ slug: string }>()).slug).toBe((await first.json<{ slug: string }>()).slug);
  });

  it("rejects unknown tokens (404) and bodies outside the limits (422) without writing", async () => {
    const owner = await addListener();
    expect((await call("/v1/listeners/unknown/forward", jsonBody("POST", { text: "x" }))).status).toBe(404);
    const bad = [{}, { text: "  " }, { url: "not a url" }, { text: "x", title: "t".repeat(301) }, { text: "x".repeat(200_001) }, { text: "x", vertical: "" }];
    for (const b of bad) expect((await call(`/v1/listeners/${owner.token}/forward`, jsonBody("POST", b))).status).toBe(422);
    expect(await database(env).$count(articles)).toBe(0);
  });

  it("an address stores at most 30 forwards an hour, however many listeners it makes (issue 29, item 5)", async () => {
    const forward = async (ip: string, n: number) =>
      call(`/v1/listeners/${(await addListener()).token}/forward`, { ...jsonBody("POST", { url: `https://example.com/${n}`, text: "x".repeat(1000) }), ip });
    for (let i = 0; i < FORWARDS_PER_HOUR_PER_ADDRESS; i++) expect((await forward("198.51.100.60", i)).status).toBe(201);
    const refused = await forward("198.51.100.60", FORWARDS_PER_HOUR_PER_ADDRESS);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await database(env).$count(articles)).toBe(FORWARDS_PER_HOUR_PER_ADDRESS);
    expect((await forward("198.51.100.61", 0)).status).toBe(201);
  });
});
