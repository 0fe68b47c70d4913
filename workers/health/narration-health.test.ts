import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call } from "../../test/support/client";

const worker = async () => (await call("/v1/health/worker")).json<Record<string, unknown>>();

describe("GET /v1/health/worker (docs/rules.md 4)", () => {
  it("healthy when the active queue is zero, even with no render ever", async () => {
    const res = await call("/v1/health/worker");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ healthy: true, diagnosis: "idle: no render jobs queued or running", active_queue: 0, last_render_at: null });
  });

  it("unhealthy, still 200, with queued or running jobs and no render in the last 10 minutes", async () => {
    await env.DB.prepare("INSERT INTO render_jobs (id, state) VALUES ('q', 'queued'), ('r', 'running'), ('x', 'failed')").run();
    const old = Date.now() - 11 * 60_000;
    await env.DB.prepare("INSERT INTO render_jobs (id, state, finished_at) VALUES ('d', 'done', ?)").bind(old).run();
    const res = await call("/v1/health/worker");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      healthy: false,
      diagnosis: "2 render job(s) queued or running and no render succeeded in the last 10 minutes",
      active_queue: 2,
      last_render_at: new Date(old).toISOString(),
    });
  });

  it("healthy with a busy queue when a job finished within 10 minutes", async () => {
    await env.DB.prepare("INSERT INTO render_jobs (id, state) VALUES ('q', 'queued')").run();
    await env.DB.prepare("INSERT INTO render_jobs (id, state, finished_at) VALUES ('d', 'done', ?)")
      .bind(Date.now() - 9 * 60_000)
      .run();
    expect(await worker()).toMatchObject({ healthy: true, active_queue: 1, diagnosis: expect.stringMatching(/^a render succeeded \d+ s ago$/) });
  });

  it("a synchronous render (new audio object) counts as a success", async () => {
    await env.DB.prepare("INSERT INTO render_jobs (id, state) VALUES ('q', 'queued')").run();
    await env.DB.prepare("INSERT INTO audio_objects (key, provider, voice, duration_seconds) VALUES ('k', 'offline', 'v', 1)").run();
    expect(await worker()).toMatchObject({ healthy: true, active_queue: 1 });
  });
});

describe("GET /v1/health/cache (docs/rules.md 4)", () => {
  it("public: the R2 backend, reachable, and no recent_keys (object store)", async () => {
    const res = await call("/v1/health/cache");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ backend: "r2", object_store_reachable: true, edge_cache: "caches.default", recent_keys: [] });
  });

  it("reports an unreachable object store without failing", async () => {
    vi.spyOn(env.AUDIO, "head").mockRejectedValueOnce(new Error("r2 down"));
    expect(await (await call("/v1/health/cache")).json()).toMatchObject({ object_store_reachable: false });
    vi.restoreAllMocks();
  });
});
