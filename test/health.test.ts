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
