import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { addArticle } from "../../test/support/articles";
import { database, renderJobs } from "../db";
import { subscribeVia } from "../../test/support/listeners";

type JobState = (typeof renderJobs.$inferInsert)["state"];

async function addJob(articleId: number, state: JobState, audioKey: string | null = null, at = Date.now()) {
  await database(env)
    .insert(renderJobs)
    .values({ id: crypto.randomUUID(), articleId, state, audioKey, createdAt: new Date(at), finishedAt: state === "done" ? new Date(at) : null });
}

async function listenerId(email: string) {
  return (await env.DB.prepare("select id from listeners where email = ?").bind(email).first<{ id: number }>())!.id;
}

describe("GET /v1/listeners/{token}/queue", () => {
  it("reports pending, rendering, failed and done items of the listener's verticals", async () => {
    const { token } = await subscribeVia("queue@example.test", ["tech"]);
    const t = Date.now();
    const none = await addArticle({ vertical: "tech", createdAt: new Date(t - 5000) });
    const queued = await addArticle({ vertical: "tech", createdAt: new Date(t - 4000) });
    const running = await addArticle({ vertical: "tech", createdAt: new Date(t - 3000) });
    const failed = await addArticle({ vertical: "tech", createdAt: new Date(t - 2000) });
    const done = await addArticle({ vertical: "tech", createdAt: new Date(t - 1000) });
    await addArticle({ vertical: "sports" });
    await addJob(queued.id, "queued");
    await addJob(running.id, "running");
    await addJob(failed.id, "failed");
    await addJob(done.id, "done", "k".repeat(64));
    const res = await call(`/v1/listeners/${token}/queue`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { slug: string; status: string; audio_url: string | null }[]; counts: Record<string, number> };
    expect(body.items.map((i) => [i.slug, i.status])).toEqual([
      [done.slug, "done"],
      [failed.slug, "failed"],
      [running.slug, "rendering"],
      [queued.slug, "pending"],
      [none.slug, "pending"],
    ]);
    expect(body.items[0].audio_url).toBe(`${testVars.BASE_URL}/v1/audio/${"k".repeat(64)}.mp3`);
    expect(body.counts).toEqual({ pending: 2, rendering: 1, failed: 1, done: 1 });
  });

  it("honours limit and rejects one out of range", async () => {
    const { token } = await subscribeVia("ql@example.test");
    await addArticle();
    await addArticle();
    expect(((await (await call(`/v1/listeners/${token}/queue?limit=1`)).json()) as { items: unknown[] }).items).toHaveLength(1);
    expect((await call(`/v1/listeners/${token}/queue?limit=101`)).status).toBe(422);
  });
});

describe("GET /v1/listeners/{token}/feed", () => {
  it("lists newest first with audio_ready and audio_url, without other listeners' private articles", async () => {
    const { token } = await subscribeVia("feed@example.test", ["science"]);
    await subscribeVia("someone@example.test");
    const mine = await listenerId("feed@example.test");
    const theirs = await listenerId("someone@example.test");
    const t = Date.now();
    const old = await addArticle({ vertical: "science", createdAt: new Date(t - 60_000) });
    const ready = await addArticle({ vertical: "science", createdAt: new Date(t - 30_000) });
    const forwarded = await addArticle({ vertical: "culture", visibility: "listener_private", ownerListenerId: mine, createdAt: new Date(t - 10_000) });
    await addArticle({ vertical: "science", visibility: "listener_private", ownerListenerId: theirs, createdAt: new Date(t) });
    await addJob(ready.id, "done", "a".repeat(64));
    const res = await call(`/v1/listeners/${token}/feed`);
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: { slug: string; audio_ready: boolean; audio_url: string | null }[] };
    expect(items.map((i) => i.slug)).toEqual([forwarded.slug, ready.slug, old.slug]);
    expect(items[1]).toMatchObject({ audio_ready: true, audio_url: `${testVars.BASE_URL}/v1/audio/${"a".repeat(64)}.mp3` });
    expect(items[2]).toMatchObject({ audio_ready: false, audio_url: null });
  });
});
