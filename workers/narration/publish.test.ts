import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { signWebhook, verifyWebhook } from "../core/auth";

const encode = (s: string) => new TextEncoder().encode(s);

function article(overrides: Record<string, unknown> = {}) {
  return {
    slug: "tides-of-the-north-sea",
    title: "Tides of the North Sea",
    publisher: "Harbour Gazette",
    vertical: "science",
    body_text: "The tide comes in twice a day. Nobody asked it to.",
    summary: "Why the sea keeps moving.",
    published_at: "2026-11-20T08:00:00.000Z",
    host: "news",
    declassified: true,
    ...overrides,
  };
}

async function publish(body: unknown, sign: (raw: Uint8Array) => Promise<string | null> = (raw) => signWebhook(testVars.PUBLISH_WEBHOOK_SECRET, raw)) {
  // A string goes out as-is, so a test can send bytes that are not JSON at all.
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const signature = await sign(encode(raw));
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== null) headers["x-legacy-signature"] = signature;
  return call("/v1/webhook/publish", { method: "POST", body: raw, headers });
}

async function counts() {
  const a = await env.DB.prepare("SELECT count(*) AS n FROM articles").first<{ n: number }>();
  const j = await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first<{ n: number }>();
  return { articles: a!.n, jobs: j!.n };
}

function spyQueue() {
  return vi.spyOn(env.RENDER_QUEUE, "send");
}

afterEach(() => vi.restoreAllMocks());

/** The clock of the signature tests, on a whole second: the Worker reads the same faked Date. */
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

describe("POST /v1/webhook/publish: signature (README, Publish webhook)", () => {
  const secret = testVars.PUBLISH_WEBHOOK_SECRET;
  // Time stands still at NOW: a signature "299 s old" is exactly that when the Worker checks it,
  // whatever was left of the current second (only Date is faked; timers and I/O run as usual).
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const cases: [string, (raw: Uint8Array) => Promise<string | null>][] = [
    ["missing", async () => null],
    ["malformed", async () => "sha256=deadbeef"],
    ["signed with another secret", (raw) => signWebhook("not-the-secret", raw)],
    ["over a different body", () => signWebhook(secret, encode("{}"))],
    // README: a timestamp more than 300 s from now answers 401.
    ["stale (301 s old)", (raw) => signWebhook(secret, raw, NOW - 301_000)],
    ["from the future (301 s ahead)", (raw) => signWebhook(secret, raw, NOW + 301_000)],
    ["with upper-case hex", async (raw) => (await signWebhook(secret, raw)).toUpperCase().replace("T=", "t=").replace("V1=", "v1=")],
  ];
  for (const [name, sign] of cases) {
    it(`401 and nothing changed when the signature is ${name}`, async () => {
      const send = spyQueue();
      const res = await publish(article(), sign);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "unauthorized" });
      expect(await counts()).toEqual({ articles: 0, jobs: 0 });
      expect(send).not.toHaveBeenCalled();
    });
  }

  it.each([
    ["299 s old", -299_000],
    ["300 s old", -300_000],
    ["300 s ahead", 300_000],
  ])("accepts a signature %s", async (_, offset) => {
    const res = await publish(article(), (raw) => signWebhook(secret, raw, NOW + offset));
    expect(res.status).toBe(200);
  });

  it("verifies the exact bytes: the same JSON re-serialised differently does not verify", async () => {
    const raw = encode('{"a": 1}');
    const header = await signWebhook(secret, raw);
    expect(await verifyWebhook(secret, header, raw)).toBe(true);
    expect(await verifyWebhook(secret, header, encode('{"a":1}'))).toBe(false);
    expect(await verifyWebhook("", header, raw)).toBe(false);
  });

  it("checks the signature before the body: an invalid body with a bad signature is 401, not 422", async () => {
    const res = await publish({ nonsense: true }, async () => "t=1,v1=" + "0".repeat(64));
    expect(res.status).toBe(401);
  });
});

describe("POST /v1/webhook/publish: upsert and pre-render", () => {
  it("shows a re-published text at once where the article was just read (kernel/article-by-slug.ts keeps reads 5 s)", async () => {
    spyQueue();
    await publish(article());
    const read = async () => (await (await call("/v1/agent/articles/tides-of-the-north-sea")).json<{ body_text: string }>()).body_text;
    expect(await read()).toBe("The tide comes in twice a day. Nobody asked it to.");
    expect((await publish(article({ body_text: "The tide turned." }))).status).toBe(200);
    expect(await read()).toBe("The tide turned.");
  });

  it("creates the article with all its fields, queues one job and sends its id", async () => {
    const send = spyQueue();
    const res = await publish(article());
    expect(res.status).toBe(200);
    const body = await res.json<{ slug: string; job_id: string; created: boolean; rendered: boolean }>();
    expect(body).toEqual({
      slug: "tides-of-the-north-sea",
      job_id: expect.any(String),
      created: true,
      rendered: false,
      language: "en",
      language_source: "detected",
    });
    const row = await env.DB.prepare("SELECT * FROM articles WHERE slug = ?").bind(body.slug).first<Record<string, unknown>>();
    expect(row).toMatchObject({
      title: "Tides of the North Sea",
      publisher: "Harbour Gazette",
      vertical: "science",
      host: "news",
      declassified: 1,
      visibility: "public",
      created_at: Date.parse("2026-11-20T08:00:00.000Z"),
      published_at: Date.parse("2026-11-20T08:00:00.000Z"),
    });
    expect(row!.content_hash).toMatch(/^[0-9a-f]{64}$/);
    const job = await env.DB.prepare("SELECT * FROM render_jobs WHERE id = ?").bind(body.job_id).first<Record<string, unknown>>();
    expect(job).toMatchObject({ article_id: row!.id, state: "queued", priority: "normal" });
    expect(send).toHaveBeenCalledExactlyOnceWith({ job_id: body.job_id }, { contentType: "json" });
  });

  it("re-publishing the same article changes nothing and queues nothing", async () => {
    await publish(article());
    const before = await env.DB.prepare("SELECT * FROM articles").first();
    const send = spyQueue();
    const res = await publish(article());
    expect(await res.json()).toEqual({
      slug: "tides-of-the-north-sea",
      job_id: null,
      created: false,
      rendered: false,
      language: "en",
      language_source: "detected",
    });
    expect(await env.DB.prepare("SELECT * FROM articles").first()).toEqual(before);
    expect(await counts()).toEqual({ articles: 1, jobs: 1 });
    expect(send).not.toHaveBeenCalled();
  });

  for (const state of ["failed", "cancelled"] as const) {
    it(`re-publishing unchanged text whose render ${state} renders it again, and only once`, async () => {
      await publish(article());
      await env.DB.prepare("UPDATE render_jobs SET state = ?").bind(state).run();
      const send = spyQueue();
      const res = await publish(article());
      expect(await res.json()).toMatchObject({ job_id: expect.any(String), created: false, rendered: false });
      expect(await counts()).toEqual({ articles: 1, jobs: 2 });
      expect(send).toHaveBeenCalledOnce();
      expect((await (await publish(article())).json<{ job_id: string | null }>()).job_id).toBeNull();
    });
  }

  it("files the article under a creator tenant, and refuses an unknown one with 422 and nothing written", async () => {
    await env.DB.prepare("INSERT INTO creators (slug, name) VALUES ('ada', 'Ada')").run();
    expect((await publish(article({ creator: "ada" }))).status).toBe(200);
    const row = await env.DB.prepare("SELECT c.slug FROM articles a JOIN creators c ON c.id = a.creator_id").first();
    expect(row).toEqual({ slug: "ada" });

    const res = await publish(article({ slug: "another-one", creator: "nobody" }));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: [{ loc: ["body", "creator"], msg: expect.any(String), type: "unknown_creator" }] });
    expect(await counts()).toEqual({ articles: 1, jobs: 1 });
  });

  it("a change of summary updates the article without a render", async () => {
    await publish(article());
    const res = await publish(article({ summary: "New summary." }));
    expect(await res.json()).toMatchObject({ job_id: null, created: false });
    const row = await env.DB.prepare("SELECT summary, updated_at FROM articles").first<{ summary: string; updated_at: number }>();
    expect(row!.summary).toBe("New summary.");
    expect(row!.updated_at).toBeGreaterThan(0);
    expect((await counts()).jobs).toBe(1);
  });

  for (const [what, change] of [
    ["body text", { body_text: "The tide went out and stayed out." }],
    ["title", { title: "Tides of the Baltic" }],
    ["voice", { voice: "alloy" }],
  ] as const) {
    it(`a change of ${what} renders again and drops the old audio`, async () => {
      await publish(article());
      await env.DB.prepare("UPDATE articles SET audio_key = ?, listen_seconds = 12").bind("a".repeat(64)).run();
      const res = await publish(article(change));
      const body = await res.json<{ job_id: string | null; created: boolean }>();
      expect(body.created).toBe(false);
      expect(body.job_id).toEqual(expect.any(String));
      expect(await counts()).toEqual({ articles: 1, jobs: 2 });
      expect(await env.DB.prepare("SELECT audio_key, listen_seconds FROM articles").first()).toEqual({ audio_key: null, listen_seconds: null });
    });
  }

  it("reports rendered when the audio of the current text exists", async () => {
    await publish(article());
    await env.DB.prepare("UPDATE articles SET audio_key = ?").bind("a".repeat(64)).run();
    expect(await (await publish(article())).json()).toMatchObject({ job_id: null, rendered: true });
  });

  it("derives a kebab-case slug from the title, idempotently, and keeps slugs unique across publishers", async () => {
    const { slug: _omit, ...noSlug } = article({ title: "Café Prices: Up 5% — Again!" });
    const first = await (await publish(noSlug)).json<{ slug: string; created: boolean }>();
    expect(first).toMatchObject({ slug: "cafe-prices-up-5-again", created: true });
    expect(await (await publish(noSlug)).json()).toMatchObject({ slug: "cafe-prices-up-5-again", created: false, job_id: null });
    const other = await (await publish({ ...noSlug, publisher: "Other Daily" })).json();
    expect(other).toMatchObject({ slug: "cafe-prices-up-5-again-2", created: true });
  });

  it("created_at is now when published_at is absent", async () => {
    const before = Date.now();
    await publish(article({ published_at: undefined }));
    const after = Date.now();
    const row = await env.DB.prepare("SELECT created_at FROM articles").first<{ created_at: number }>();
    expect(row!.created_at).toBeGreaterThanOrEqual(before);
    expect(row!.created_at).toBeLessThanOrEqual(after);
  });

  it.each([
    ["listener_private visibility", { visibility: "listener_private" }, "visibility"],
    ["an unknown host", { host: "weather" }, "host"],
    ["a non-kebab slug", { slug: "Not A Slug" }, "slug"],
    ["an empty body", { body_text: "  " }, "body_text"],
    ["a bad published_at", { published_at: "yesterday" }, "published_at"],
  ])("422 with nothing changed for %s", async (_name, change, field) => {
    const res = await publish(article(change));
    expect(res.status).toBe(422);
    const body = await res.json<{ detail: { loc: string[] }[] }>();
    expect(body.detail[0].loc).toEqual(["body", field]);
    expect(await counts()).toEqual({ articles: 0, jobs: 0 });
  });

  it("422 for a signed body that is not JSON", async () => {
    const res = await publish("not json");
    expect(res.status).toBe(422);
  });

  it("answers before the Queue takes the message: a slow send never holds a publish (issue 28)", async () => {
    // Sent, not yet accepted: the send settles only when the test says so, after the response.
    let accept = (_sent: QueueSendResponse) => {};
    const send = spyQueue().mockReturnValue(new Promise((resolve) => (accept = resolve)));
    const res = await publish(article());
    expect(res.status).toBe(200);
    const { job_id } = await res.json<{ job_id: string }>();
    expect(send).toHaveBeenCalledWith({ job_id }, { contentType: "json" });
    expect(await env.DB.prepare("SELECT state FROM render_jobs WHERE id = ?").bind(job_id).first("state")).toBe("queued");
    accept({ metadata: { metrics: { backlogCount: 1, backlogBytes: 0, oldestMessageTimestamp: new Date() } } });
  });

  it("when the queue refuses the message after the response, the job is marked failed with the reason", async () => {
    vi.spyOn(env.RENDER_QUEUE, "send").mockRejectedValue(new Error("queue down"));
    const res = await publish(article());
    expect(res.status).toBe(200);
    const { job_id } = await res.json<{ job_id: string }>();
    const job = () => env.DB.prepare("SELECT state, error FROM render_jobs WHERE id = ?").bind(job_id).first();
    await vi.waitFor(async () => expect(await job()).toEqual({ state: "failed", error: "enqueue failed: queue down" }));
  });
});

describe("POST /v1/webhook/publish: concurrent deliveries", () => {
  it("two simultaneous deliveries of a new article create it once; the loser gets 409 and can retry", async () => {
    const results = await Promise.all([publish(article()), publish(article())]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect((await counts()).articles).toBe(1);
    expect((await publish(article())).status).toBe(200);
  });
});
