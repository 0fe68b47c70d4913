import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../workers/api";
import { describe, expect, it } from "vitest";
import { apiKeyHeaders, call } from "./support/client";
import { testVars } from "./vars";

describe("GET /v1/health", () => {
  it("is public and reports no bindings without a key", async () => {
    const res = await call("/v1/health");
    expect(res.status).toBe(200);
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ status: "ok", version: "0.1.0" });
    expect(body.bindings).toBeUndefined();
  });

  it("reports each binding with a valid x-service-key", async () => {
    const res = await call("/v1/health", { headers: apiKeyHeaders });
    expect(await res.json()).toMatchObject({
      bindings: { DB: "ok", AUDIO: "ok", RENDER_QUEUE: "ok", RATE_LIMITER: "ok", AI: "ok" },
    });
  });

  it("ignores a wrong key", async () => {
    const res = await call("/v1/health", { headers: { "x-service-key": "nope" } });
    expect((await res.json<Record<string, unknown>>()).bindings).toBeUndefined();
  });
});

describe("GET /v1/version", () => {
  it("reports version, commit, build time and compatibility date", async () => {
    const res = await call("/v1/version");
    expect(await res.json()).toEqual({
      version: "0.1.0",
      commit: testVars.BUILD_COMMIT,
      build_time: testVars.BUILD_TIME,
      compatibility_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });
});

describe("GET /v1/health tells whether narration works", () => {
  it("says degraded, still 200, with the reason, when a render job failed in the last 10 minutes", async () => {
    const at = Date.now() - 9 * 60_000;
    await env.DB.prepare("INSERT INTO render_jobs (id, state, error, finished_at) VALUES ('f', 'failed', 'no_provider: offline/en-US-female: upstream_5xx', ?)")
      .bind(at)
      .run();
    const res = await call("/v1/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: "degraded",
      reasons: ["1 render job(s) failed in the last 10 minutes; the latest: no text-to-speech provider could voice it"],
    });
  });

  it("is ok when the only failed job is older than 10 minutes", async () => {
    await env.DB.prepare("INSERT INTO render_jobs (id, state, finished_at) VALUES ('f', 'failed', ?)")
      .bind(Date.now() - 11 * 60_000)
      .run();
    expect(await (await call("/v1/health")).json()).toMatchObject({ status: "ok", reasons: [] });
  });

  it("says degraded when the render Worker does not answer, in its own words, never the error's text (issue 40 item 13)", async () => {
    const failure = "connect ECONNREFUSED 10.20.30.40:8788 (render.internal.example)";
    const silent = { ...env, RENDER: { ping: () => Promise.reject(new Error(failure)) } };
    const res = await worker.fetch(new Request(`${testVars.BASE_URL}/v1/health`), silent as never, createExecutionContext());
    expect(await res.json()).toMatchObject({ status: "degraded", reasons: ["the render Worker does not answer"] });
  });
});
