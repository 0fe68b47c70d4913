import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { addArticle, addListener } from "../../test/support/articles";

describe("GET /v1/articles/{slug}", () => {
  it("shows a public article in full, indexable", async () => {
    const a = await addArticle({ title: "Open data", summary: "S", bodyText: "Full text.", audioKey: "abc123", listenSeconds: 42 });
    const res = await call(`/v1/articles/${a.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-robots-tag")).toBeNull();
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      slug: a.slug,
      title: "Open data",
      body_text: "Full text.",
      summary: "S",
      stub: false,
      noindex: false,
      audio_ready: true,
      audio_url: "https://api.test/v1/audio/abc123.mp3",
      listen_seconds: 42,
    });
  });

  it("shows a publisher_only article as a thin noindex stub without its text", async () => {
    const a = await addArticle({ visibility: "publisher_only", summary: "Paid summary", bodyText: "Paid text" });
    const res = await call(`/v1/articles/${a.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ stub: true, noindex: true, visibility: "publisher_only", body_text: null, summary: "" });
    expect(JSON.stringify(body)).not.toContain("Paid");
  });

  it("answers 404 for a listener_private article to anyone but its owner", async () => {
    const owner = await addListener();
    const other = await addListener();
    const a = await addArticle({ visibility: "listener_private", ownerListenerId: owner.listener.id, bodyText: "Mine" });
    expect((await call(`/v1/articles/${a.slug}`)).status).toBe(404);
    expect((await call(`/v1/articles/${a.slug}?listener_token=${other.token}`)).status).toBe(404);
    const byQuery = await call(`/v1/articles/${a.slug}?listener_token=${owner.token}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers.get("x-robots-tag")).toBe("noindex");
    expect(byQuery.headers.get("cache-control")).toBe("private, no-store");
    expect(await byQuery.json()).toMatchObject({ body_text: "Mine", noindex: true, stub: false, visibility: "listener_private" });
    const byHeader = await call(`/v1/articles/${a.slug}`, { headers: { "x-listener-token": owner.token } });
    expect(byHeader.status).toBe(200);
  });

  it("answers 404 for unknown slugs and unknown tokens, 422 outside the limits", async () => {
    const a = await addArticle();
    expect((await call("/v1/articles/nope")).status).toBe(404);
    expect((await call(`/v1/articles/${a.slug}?listener_token=not-a-token`)).status).toBe(404);
    expect((await call(`/v1/articles/${a.slug}?listener_token=${"x".repeat(65)}`)).status).toBe(422);
    expect((await call(`/v1/articles/${"s".repeat(201)}`)).status).toBe(422);
  });
});
