import { describe, expect, it } from "vitest";
import { ERRORS } from "../workers/core/errors";
import { call } from "./support/client";
import { testVars } from "./vars";

describe("HTTP conventions", () => {
  it("answers an unknown path with a JSON 404", async () => {
    const res = await call("/v1/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({
      detail: "no resource at /v1/no-such-thing",
      code: "not_found",
      request_id: res.headers.get("X-Request-Id"),
      docs: `${testVars.WEB_URL}/errors#not_found`,
    });
  });

  it("gives a 422 the same envelope: code, request id and the docs link of its code", async () => {
    const res = await call("/v1/stories/search?q=cable&limit=0");
    expect(res.status).toBe(422);
    const body = await res.json<{ detail: { loc: unknown[] }[]; code: string; request_id: string; docs: string }>();
    expect(body.detail[0].loc).toEqual(["query", "limit"]);
    expect(body).toMatchObject({
      code: "validation_failed",
      request_id: res.headers.get("X-Request-Id"),
      docs: `${testVars.WEB_URL}/errors#validation_failed`,
    });
  });

  it("explains every code on the page the docs links open, each at its own anchor", async () => {
    const res = await call(`${testVars.WEB_URL}/errors`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const code of Object.keys(ERRORS)) expect(html, code).toContain(`id="${code}"`);
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
