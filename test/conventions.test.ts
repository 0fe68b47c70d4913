import { describe, expect, it } from "vitest";
import { call } from "./support/client";

describe("HTTP conventions", () => {
  it("answers an unknown path with a JSON 404", async () => {
    const res = await call("/v1/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ detail: "no resource at /v1/no-such-thing", code: "not_found", request_id: res.headers.get("X-Request-Id") });
  });

  it("answers a known path with the wrong method with a JSON 405 and Allow", async () => {
    const res = await call("/v1/health", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(await res.json()).toMatchObject({ code: "method_not_allowed" });
  });

  it("answers CORS preflights and marks responses for browsers", async () => {
    const pre = await call("/v1/health", {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const res = await call("/v1/health", { headers: { origin: "https://app.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    // On the response itself, where a browser reads it (Fetch standard, "CORS protocol").
    expect(res.headers.get("access-control-expose-headers")).toContain("ETag");
  });
});
