import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { addArticle } from "../../test/support/articles";
import { adminHeaders, call, jsonBody } from "../../test/support/client";
import { callWith } from "../../test/support/narration";
import { sitePage } from "../../test/support/links-site";
import { finishJob } from "../../test/support/render-store";
import { studioBrowser } from "../../test/support/studio";
import { database, publisherSettings, renderJobs, webhookDeliveries, webhookEndpoints } from "../db";
import { announce } from "../kernel/webhook-events";
import { backoffSeconds, consumeWebhooks } from "./deliver";

declare module "vitest" {
  interface ProvidedContext {
    webhookReceiverUrl: string;
  }
}

/**
 * Outbound webhooks (docs/publishers.md "Webhooks") against a real receiver on loopback
 * (scripts/webhook-receiver-setup.mjs), each delivery verified with the Standard Webhooks library.
 */

const PUBLISHER = "Harbour Gazette";
/** On this machine (WEB_URL on loopback) an endpoint may be http on 127.0.0.1. */
const DEV = { WEB_URL: "http://127.0.0.1:8787" };
const hooksPath = (publisher = PUBLISHER) => `/v1/publishers/${encodeURIComponent(publisher)}/webhooks`;
const receiver = () => inject("webhookReceiverUrl");

async function keyOf(publisher: string): Promise<string> {
  const res = await call(`/v1/admin/publishers/${encodeURIComponent(publisher)}/keys`, { method: "POST", headers: adminHeaders });
  return ((await res.json()) as { key: string }).key;
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function register(key: string, url: string, events?: string[], publisher = PUBLISHER, extraEnv: Record<string, string> = DEV) {
  return callWith(null, hooksPath(publisher), jsonBody("POST", { url, ...(events ? { events } : {}) }, bearer(key)), extraEnv);
}

interface Received {
  headers: Record<string, string>;
  body: string;
  status: number;
}

async function receivedBy(name: string): Promise<Received[]> {
  return (await (await fetch(`${receiver()}/received/${name}`)).json()) as Received[];
}

/** Runs the webhook consumer on one message, as the queue delivers its `attempts`th try. */
async function attempt(deliveryId: string, attempts: number) {
  const batch = createMessageBatch("narration-webhooks", [{ id: `m${attempts}`, timestamp: new Date(), attempts, body: { delivery_id: deliveryId } }]);
  await consumeWebhooks(batch, env);
  return getQueueResult(batch, createExecutionContext());
}

const deliveries = () => database(env).select().from(webhookDeliveries);

/**
 * A delivery waiting for its first attempt, written as announce() writes it but not queued: the API
 * Worker consumes the real queue in tests too, and these tests play the queue's attempts themselves.
 */
async function pendingDelivery(endpointId: string, type: string, data: object): Promise<string> {
  const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
  const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  await database(env).insert(webhookDeliveries).values({ id, endpointId, publisher: PUBLISHER, event: type, payload, state: "pending" });
  return id;
}

describe("webhook endpoints", () => {
  it("are registered with a secret shown once, listed without it, and stored only encrypted", async () => {
    const key = await keyOf(PUBLISHER);
    const res = await register(key, "https://hooks.harbour.example.com/narration", ["narration.ready"]);
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; secret: string; events: string[] };
    expect(created.id).toMatch(/^ep_[0-9a-f]{32}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.events).toEqual(["narration.ready"]);
    const listed = await (await call(hooksPath(), { headers: bearer(key) })).text();
    expect(JSON.parse(listed).endpoints).toEqual([expect.objectContaining({ id: created.id, url: "https://hooks.harbour.example.com/narration" })]);
    expect(listed).not.toContain(created.secret);
    const stored = JSON.stringify((await env.DB.prepare("SELECT * FROM webhook_endpoints").all()).results);
    expect(stored).not.toContain(created.secret.slice(6));
    expect(stored).not.toContain(atob(created.secret.slice(6)));
  });

  it("refuse an address, this machine, a private name or plain http outside development with 422, changing nothing", async () => {
    const key = await keyOf(PUBLISHER);
    for (const url of [
      "https://10.0.0.7/hook",
      "https://127.0.0.1/hook",
      "https://router.internal/hook",
      "http://hooks.example.com/hook",
      "https://u:p@hooks.example.com/h",
      "not a url",
    ]) {
      const res = await register(key, url, undefined, PUBLISHER, {});
      expect(res.status, url).toBe(422);
      expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0].loc).toEqual(["body", "url"]);
    }
    expect((await register(key, `${receiver()}/hooks/dev`)).status).toBe(201);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_endpoints").first("n")).toBe(1);
  });

  it("belong to their publisher: another publisher's key finds none, deletes none, reads no log", async () => {
    const key = await keyOf(PUBLISHER);
    const other = await keyOf("Inland Courier");
    const { id } = (await (await register(key, "https://hooks.example.com/a")).json()) as { id: string };
    expect((await call(hooksPath(), { headers: bearer(other) })).status).toBe(404);
    expect((await call(`${hooksPath()}/deliveries`, { headers: bearer(other) })).status).toBe(404);
    expect((await call(`${hooksPath()}/${id}`, { method: "DELETE", headers: bearer(other) })).status).toBe(404);
    expect((await call(`${hooksPath("Inland Courier")}/${id}`, { method: "DELETE", headers: bearer(other) })).status).toBe(404);
    expect((await call(`${hooksPath()}/${id}`, { method: "DELETE", headers: bearer(key) })).status).toBe(204);
    expect(((await (await call(hooksPath(), { headers: bearer(key) })).json()) as { endpoints: [] }).endpoints).toEqual([]);
  });
});

describe("deliveries", () => {
  it("back off from 10 seconds to 12 hours, the most a queue delays a message", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(backoffSeconds)).toEqual([10, 60, 300, 1800, 7200, 21600, 43200, 43200]);
  });

  it("a receiver that fails twice then succeeds gets one delivery, the same message id each time, signed by Standard Webhooks", async () => {
    const key = await keyOf(PUBLISHER);
    const name = `twice-${crypto.randomUUID().slice(0, 8)}`;
    const { id: endpoint, secret } = (await (await register(key, `${receiver()}/hooks/${name}?fail=2`)).json()) as { id: string; secret: string };
    const row = { id: await pendingDelivery(endpoint, "narration.failed", { job_id: "job-x", error: "no_provider" }) };

    const first = await attempt(row.id, 1);
    expect(first.retryMessages).toEqual([{ msgId: "m1" }]);
    const second = await attempt(row.id, 2);
    expect(second.retryMessages).toEqual([{ msgId: "m2" }]);
    expect((await deliveries())[0]).toMatchObject({ state: "pending", attempts: 2, lastStatus: 500, lastError: "answered 500" });
    const third = await attempt(row.id, 3);
    expect(third.retryMessages).toEqual([]);
    expect(third.explicitAcks).toEqual(["m3"]);
    // A repeat of the message (a queue delivers at least once) sends nothing more.
    await attempt(row.id, 4);

    const got = await receivedBy(name);
    expect(got.map((r) => r.status)).toEqual([500, 500, 204]);
    expect(new Set(got.map((r) => r.headers["webhook-id"]))).toEqual(new Set([row.id]));
    const verified = new Webhook(secret).verify(got[2].body, got[2].headers) as { type: string; data: { job_id: string } };
    expect(verified).toMatchObject({ type: "narration.failed", data: { job_id: "job-x" } });
    // A signature under another secret is refused by the library.
    expect(() => new Webhook(`whsec_${btoa("another secret of enough length")}`).verify(got[2].body, got[2].headers)).toThrow();

    const log = (await (await call(`${hooksPath()}/deliveries`, { headers: bearer(key) })).json()) as { deliveries: object[] };
    expect(log.deliveries).toEqual([
      expect.objectContaining({ id: row.id, event: "narration.failed", state: "delivered", attempts: 3, last_status: 204, last_error: null }),
    ]);
  });

  it("follow no redirect: an endpoint answering 302 to a private address gets it recorded as an answer, and the address is never asked", async () => {
    const key = await keyOf(PUBLISHER);
    // The loopback site's /to-private redirects to http://10.0.0.7/admin (scripts/links-site.mjs).
    const { id: endpoint } = (await (await register(key, sitePage("/to-private"))).json()) as { id: string };
    const id = await pendingDelivery(endpoint, "narration.failed", { job_id: "job-r", error: "no_provider" });
    expect((await attempt(id, 1)).retryMessages).toEqual([{ msgId: "m1" }]);
    // Followed, the private address would have been asked: no answer, "could not connect" or a timeout.
    expect((await deliveries())[0]).toMatchObject({ state: "pending", attempts: 1, lastStatus: 302, lastError: "answered 302" });
  });

  it("read no receiver's body: one whose answer never ends is delivered on its status, not waited for", async () => {
    const key = await keyOf(PUBLISHER);
    // /hang sends its headers and a first chunk, then nothing (scripts/links-site.mjs).
    const { id: endpoint } = (await (await register(key, sitePage("/hang"))).json()) as { id: string };
    const id = await pendingDelivery(endpoint, "narration.failed", { job_id: "job-h", error: "no_provider" });
    expect((await attempt(id, 1)).explicitAcks).toEqual(["m1"]);
    expect((await deliveries())[0]).toMatchObject({ state: "delivered", attempts: 1, lastStatus: 200, lastError: null });
  });

  it("a delivery whose every attempt failed is marked failed by the dead-letter queue", async () => {
    const key = await keyOf(PUBLISHER);
    const { id: endpoint } = (await (await register(key, `${receiver()}/hooks/never?fail=1000`)).json()) as { id: string };
    const row = { id: await pendingDelivery(endpoint, "narration.ready", { job_id: "job-y" }) };
    await attempt(row.id, 1);
    await consumeWebhooks(createMessageBatch("narration-webhooks-dlq", [{ id: "d", timestamp: new Date(), attempts: 1, body: { delivery_id: row.id } }]), env);
    expect((await deliveries())[0]).toMatchObject({ state: "failed", attempts: 1, lastStatus: 500 });
  });

  it("events go only to the endpoints that take them; a publisher without endpoints queues nothing", async () => {
    const key = await keyOf(PUBLISHER);
    await register(key, `${receiver()}/hooks/sink-ready`, ["narration.ready"]);
    await register(key, `${receiver()}/hooks/sink-all`);
    await announce(env, PUBLISHER, "narration.failed", {});
    await announce(env, "Inland Courier", "narration.ready", {});
    expect((await deliveries()).map((d) => d.event)).toEqual(["narration.failed"]);
  });
});

describe("the studio's webhooks page", () => {
  const page = `/studio/${encodeURIComponent(PUBLISHER)}/webhooks`;

  it("an editor adds an endpoint (its secret shown once), sees a signed delivery in the log, and removes it", async () => {
    const editor = await studioBrowser(PUBLISHER, "ed@example.test", "editor", DEV);
    const name = `studio-${crypto.randomUUID().slice(0, 8)}`;
    const url = `${receiver()}/hooks/${name}`;
    const added = await editor.post(page, [
      ["url", url],
      ["events", "narration.ready"],
      ["events", "narration.failed"],
    ]);
    expect(added.status).toBe(201);
    const secret = /<code id="webhook-secret">(whsec_.+?)<\/code>/.exec(await added.text())![1].replaceAll("<wbr>", "");
    const [endpoint] = await database(env).select().from(webhookEndpoints);
    expect(endpoint).toMatchObject({ publisher: PUBLISHER, url, events: ["narration.ready", "narration.failed"] });
    const shown = await (await editor.get(page)).text();
    expect(shown).toContain(`<code>${url.replaceAll("/", "/<wbr>")}</code>`);
    expect(shown).not.toContain(secret);

    await announce(env, PUBLISHER, "narration.ready", { job_id: "job-studio" });
    // The API Worker consumes the webhook queue (wrangler.toml): wait for the receiver to hear it.
    let got: Received[] = [];
    for (let i = 0; i < 100 && got.length === 0; i++) {
      got = await receivedBy(name);
      if (got.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(new Webhook(secret).verify(got[0].body, got[0].headers)).toMatchObject({ type: "narration.ready", data: { job_id: "job-studio" } });
    let log = "";
    for (let i = 0; i < 50 && !log.includes('data-state="delivered"'); i++) {
      log = await (await editor.get(page)).text();
      if (!log.includes('data-state="delivered"')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(log).toMatch(/<strong data-state="delivered">delivered<\/strong> · narration.ready · [^<]*<wbr>/);
    expect(log).toContain("1 attempt (0 retries) · last: HTTP 204");

    const removed = await editor.post(`${page}/${endpoint.id}/remove`, {});
    expect(removed.status).toBe(303);
    expect(await database(env).select().from(webhookEndpoints)).toEqual([]);
    expect((await editor.post(`${page}/${endpoint.id}/remove`, {})).status).toBe(404);
  });

  it("shows the retries of a delivery that failed before it was delivered", async () => {
    const editor = await studioBrowser(PUBLISHER, "ed@example.test", "editor", DEV);
    await editor.post(page, { url: `${receiver()}/hooks/retried-${crypto.randomUUID().slice(0, 8)}?fail=2`, events: "narration.failed" });
    const [endpoint] = await database(env).select().from(webhookEndpoints);
    const id = await pendingDelivery(endpoint.id, "narration.failed", { job_id: "job-z" });
    await attempt(id, 1);
    await attempt(id, 2);
    const waiting = await (await editor.get(page)).text();
    expect(waiting).toContain('<strong data-state="pending">pending</strong>');
    expect(waiting).toContain("2 attempts (1 retry) · last: HTTP 500 · answered 500");
    await attempt(id, 3);
    expect(await (await editor.get(page)).text()).toContain("3 attempts (2 retries) · last: HTTP 204");
  });

  it("refuses a URL the API refuses, with why, adding nothing (422)", async () => {
    const editor = await studioBrowser(PUBLISHER, "ed@example.test", "editor", {});
    for (const url of ["https://10.0.0.7/hook", "not a url", "http://hooks.example.com/hook"]) {
      const res = await editor.post(page, { url, events: "narration.ready" });
      expect(res.status, url).toBe(422);
      expect(await res.text()).toContain("The endpoint was not added");
    }
    expect((await editor.post(page, { url: "https://hooks.example.com/h", events: "narration.paid" })).status).toBe(422);
    const none = await editor.post(page, { url: "https://hooks.example.com/h" });
    expect(await none.text()).toContain("choose at least one event");
    expect(await database(env).select().from(webhookEndpoints)).toEqual([]);
  });

  it("a viewer sees the endpoints and the log but can neither add nor remove one (403); a cross-site form is refused", async () => {
    const editor = await studioBrowser(PUBLISHER, "ed@example.test", "editor", DEV);
    expect((await editor.post(page, { url: `${receiver()}/hooks/kept`, events: "narration.ready" })).status).toBe(201);
    const [endpoint] = await database(env).select().from(webhookEndpoints);
    const viewer = await studioBrowser(PUBLISHER, "vi@example.test", "viewer", DEV);
    const seen = await viewer.get(page);
    expect(seen.status).toBe(200);
    const html = await seen.text();
    expect(html).toContain("/<wbr>hooks/<wbr>kept");
    expect(html).not.toContain("Add endpoint");
    expect(html).not.toContain("/remove");
    expect((await viewer.post(page, { url: `${receiver()}/hooks/viewer`, events: "narration.ready" })).status).toBe(403);
    expect((await viewer.post(`${page}/${endpoint.id}/remove`, {})).status).toBe(403);
    expect((await editor.post(page, { url: `${receiver()}/hooks/evil`, events: "narration.ready" }, "https://evil.example")).status).toBe(403);
    expect((await editor.post(`${page}/${endpoint.id}/remove`, {}, "https://evil.example")).status).toBe(403);
    expect((await database(env).select().from(webhookEndpoints)).map((e) => e.id)).toEqual([endpoint.id]);
    // Another publisher's editor finds no such page.
    const outsider = await studioBrowser("Inland Courier", "in@example.test", "editor", DEV);
    expect((await outsider.get(page)).status).toBe(404);
    expect((await outsider.post(`${page}/${endpoint.id}/remove`, {})).status).toBe(404);
  });
});

/** A render of a new article of the publisher, finished as the render Worker reports it. */
async function finishedRender(jobId: string) {
  const article = await addArticle({ publisher: PUBLISHER, title: "Tides of the harbour" });
  await database(env).insert(renderJobs).values({ id: jobId, articleId: article.id });
  await finishJob(jobId, { key: "b".repeat(64), duration_seconds: 42, characters_synthesized: 20 });
  return article;
}

describe("narration events", () => {
  it("a render held for review announces narration.awaiting_review, and its release narration.ready", async () => {
    const key = await keyOf(PUBLISHER);
    await register(key, `${receiver()}/hooks/review-${crypto.randomUUID().slice(0, 8)}`);
    await database(env).insert(publisherSettings).values({ publisher: PUBLISHER, reviewBeforeRelease: true });
    const article = await finishedRender("job-held");
    expect((await deliveries()).map((d) => d.event)).toEqual(["narration.awaiting_review"]);
    const released = await call(`/v1/publishers/${encodeURIComponent(PUBLISHER)}/articles/${article.slug}/release`, { method: "POST", headers: bearer(key) });
    expect(released.status).toBe(200);
    expect((await deliveries()).map((d) => d.event).sort()).toEqual(["narration.awaiting_review", "narration.ready"]);
  });

  it("a finished render of an article announces narration.ready through the queue, delivered and verified", async () => {
    const key = await keyOf(PUBLISHER);
    const name = `ready-${crypto.randomUUID().slice(0, 8)}`;
    const { secret } = (await (await register(key, `${receiver()}/hooks/${name}`)).json()) as { secret: string };
    const article = await finishedRender("job-ready");
    expect((await database(env).select().from(renderJobs).where(eq(renderJobs.id, "job-ready")).get())?.state).toBe("done");

    // The API Worker consumes the webhook queue (wrangler.toml): wait for the receiver to hear it.
    let got: Received[] = [];
    for (let i = 0; i < 100 && got.length === 0; i++) {
      got = await receivedBy(name);
      if (got.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(got).toHaveLength(1);
    const event = new Webhook(secret).verify(got[0].body, got[0].headers);
    expect(event).toMatchObject({
      type: "narration.ready",
      data: {
        job_id: "job-ready",
        article: { slug: article.slug, title: "Tides of the harbour" },
        audio: `${env.BASE_URL}/v1/articles/${article.slug}/audio`,
        voice: "en-US-female",
        engine: "offline",
        fallback: false,
        error: null,
      },
    });
  });
});
