import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { adminHeaders, apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { callWith, FakeRender } from "../../test/support/narration";
import { testVars } from "../../test/vars";
import { sha256Hex } from "../core/crypto";
import { signWebhook } from "../core/auth";

/** Publisher API keys and webhook secrets (docs/security.md "Publisher keys"): issued by an admin, scoped to one publisher, revocable at once. */

const A = "Harbour Gazette";
const B = "Inland Courier";
const keysPath = (publisher: string) => `/v1/admin/publishers/${encodeURIComponent(publisher)}/keys`;

async function issueKey(publisher: string) {
  const res = await call(keysPath(publisher), { method: "POST", headers: adminHeaders });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; key: string; prefix: string; publisher: string };
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const job = (key: string, slug: string) => call("/v1/jobs", jsonBody("POST", { article_slug: slug }, bearer(key)));
const play = (key: string, slug: string) => call("/v1/plays", jsonBody("POST", { article_slug: slug, amount_micros: 1000 }, bearer(key)));
const revoke = (publisher: string, id: number) => call(`${keysPath(publisher)}/${id}`, { method: "DELETE", headers: adminHeaders });
const count = async (table: string) => (await env.DB.prepare(`select count(*) as n from ${table}`).first<number>("n")) ?? 0;

describe("publisher API keys", () => {
  it("are shown once, stored as SHA-256, and listed by prefix only", async () => {
    const issued = await issueKey(A);
    expect(issued.key.startsWith(`${issued.prefix}_`)).toBe(true);
    expect(issued.prefix).toMatch(/^npk_[A-Za-z0-9_-]{8}$/);
    expect(await env.DB.prepare("select key_hash from publisher_keys").first<string>("key_hash")).toBe(await sha256Hex(issued.key));
    const text = await (await call(keysPath(A), { headers: adminHeaders })).text();
    expect(text).not.toContain(issued.key);
    expect(JSON.parse(text).keys).toEqual([expect.objectContaining({ id: issued.id, prefix: issued.prefix, publisher: A, revoked_at: null })]);
    expect((await call(keysPath(A), { method: "POST" })).status).toBe(401);
  });

  it("work where the API key does, for the key's own publisher's articles", async () => {
    const { key } = await issueKey(A);
    const mine = await addArticle({ publisher: A });
    const queued = await job(key, mine.slug);
    expect(queued.status).toBe(202);
    const { id: jobId } = (await queued.json()) as { id: string };
    expect((await call(`/v1/jobs/${jobId}`, { headers: bearer(key) })).status).toBe(200);
    expect((await play(key, mine.slug)).status).toBe(200);
    expect((await call("/v1/jobs", jsonBody("POST", { text: "A short note." }, bearer(key)))).status).toBe(202);
  });

  it("cannot queue, read jobs of, or record plays for another publisher's articles (404, nothing written)", async () => {
    const { key } = await issueKey(A);
    const theirs = await addArticle({ publisher: B });
    expect((await job(key, theirs.slug)).status).toBe(404);
    expect((await play(key, theirs.slug)).status).toBe(404);
    expect((await count("render_jobs")) + (await count("plays")) + (await count("ledger_entries"))).toBe(0);
    const operatorJob = await call("/v1/jobs", jsonBody("POST", { article_slug: theirs.slug }, apiKeyHeaders));
    const { id: jobId } = (await operatorJob.json()) as { id: string };
    expect((await call(`/v1/jobs/${jobId}`, { headers: bearer(key) })).status).toBe(404);
    expect((await call(`/v1/jobs/${jobId}`, { headers: apiKeyHeaders })).status).toBe(200);
  });

  it("render raw text until revoked, and fail on the very next request after", async () => {
    const { key, id } = await issueKey(A);
    const mine = await addArticle({ publisher: A });
    const render = new FakeRender();
    const renderWith = () => callWith(render, "/v1/render", jsonBody("POST", { text: "A short note." }, bearer(key)));
    expect((await renderWith()).status).toBe(200);
    expect((await play(key, mine.slug)).status).toBe(200);
    expect((await revoke(A, id)).status).toBe(200);
    expect((await renderWith()).status).toBe(401);
    expect((await play(key, mine.slug)).status).toBe(401);
    expect(render.renders).toHaveLength(1);
    // Revoking is per publisher, and only once.
    expect((await revoke(B, id)).status).toBe(404);
    expect((await revoke(A, id)).status).toBe(404);
    expect(JSON.parse(await (await call(keysPath(A), { headers: adminHeaders })).text()).keys[0].revoked_at).not.toBeNull();
  });

  it("refuse a wrong or malformed key; SERVICE_API_KEY stays the operator's key, also as a Bearer token", async () => {
    const { key } = await issueKey(A);
    const theirs = await addArticle({ publisher: B });
    expect((await play(`${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`, theirs.slug)).status).toBe(401);
    expect((await play("npk_nonsense", theirs.slug)).status).toBe(401);
    expect((await call("/v1/plays", jsonBody("POST", { article_slug: theirs.slug, amount_micros: 1000 }, apiKeyHeaders))).status).toBe(200);
    expect((await play(testVars.SERVICE_API_KEY, theirs.slug)).status).toBe(200);
  });
});

describe("per-publisher webhook secrets", () => {
  const article = (publisher: string, slug = `story-${publisher.length}`) => ({
    slug,
    title: "A story",
    publisher,
    vertical: "science",
    body_text: "Some words to read aloud.",
    published_at: "2026-11-20T08:00:00.000Z",
  });

  async function publish(body: unknown, secret: string) {
    const raw = JSON.stringify(body);
    const headers = { "content-type": "application/json", "x-legacy-signature": await signWebhook(secret, new TextEncoder().encode(raw)) };
    return call("/v1/webhook/publish", { method: "POST", body: raw, headers });
  }

  async function issueSecret(publisher: string): Promise<string> {
    const res = await call(`/v1/admin/publishers/${encodeURIComponent(publisher)}/webhook-secret`, { method: "POST", headers: adminHeaders });
    expect(res.status).toBe(201);
    return ((await res.json()) as { secret: string }).secret;
  }

  it("sign the publisher's own articles only, stored encrypted; the global secret keeps working", async () => {
    const secret = await issueSecret(A);
    expect((await publish(article(A), secret)).status).toBe(200);
    expect((await publish(article(B), secret)).status).toBe(401);
    expect((await publish({ ...article(A), publisher: 7 }, secret)).status).toBe(401);
    expect((await publish(article(B), testVars.PUBLISH_WEBHOOK_SECRET)).status).toBe(200);
    expect(await env.DB.prepare("select secret_encrypted from publisher_webhook_secrets").first<string>("secret_encrypted")).not.toContain(secret);
  });

  it("cannot take over another publisher's slug (409, the article unchanged)", async () => {
    const theirs = await addArticle({ publisher: B });
    const secret = await issueSecret(A);
    const res = await publish(article(A, theirs.slug), secret);
    expect(res.status).toBe(409);
    const row = await env.DB.prepare("select publisher, title from articles where slug = ?").bind(theirs.slug).first();
    expect(row).toEqual({ publisher: B, title: theirs.title });
    expect(await count("render_jobs")).toBe(0);
  });

  it("are replaced at once when a new one is issued", async () => {
    const first = await issueSecret(A);
    const second = await issueSecret(A);
    expect((await publish(article(A), first)).status).toBe(401);
    expect((await publish(article(A), second)).status).toBe(200);
  });
});
