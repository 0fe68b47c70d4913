import { describe, expect, inject, it } from "vitest";
import { router, routes } from "../workers/router";
import { call } from "./support/client";

declare module "vitest" {
  interface ProvidedContext {
    openApiValidatorUrl: string;
  }
}

interface Doc {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
}

async function document(): Promise<Doc> {
  const res = await call("/openapi.json");
  expect(res.status).toBe(200);
  return res.json();
}

describe("GET /openapi.json", () => {
  it("is OpenAPI 3.1 at version 0.1.0", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.1.0");
  });

  it("lists every route the router serves", async () => {
    const doc = await document();
    // Pages, static files and the OAuth provider's endpoints are routes the document leaves out (Route.openapi).
    // itty-router keeps each path without its trailing slash (so "/" as "").
    const undocumented = new Set(routes.filter((r) => r.openapi === false).map((r) => r.path.replace(/\/+(\/|$)/g, "$1")));
    const registered = router.routes
      .filter(([method, , , path]) => method !== "ALL" && !undocumented.has(path!))
      .map(([method, , , path]) => `${method} ${path!.replace(/:(\w+)/g, "{$1}")}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(registered.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
  });

  it("resolves every schema reference", async () => {
    const doc = await document();
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(doc.components.schemas, ref).toHaveProperty(ref);
  });

  it("resolves every shared response, and an API-key route's 401 says what is missing", async () => {
    const doc = await document();
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/responses\/([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(refs)).toEqual(new Set(Object.keys(doc.components.responses)));
    expect(doc.paths["/v1/jobs"].post.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized_api_key" });
    expect(doc.components.responses.Unauthorized_api_key).toMatchObject({ description: "Missing or wrong API key" });
    expect(doc.components.responses.RateLimited).toMatchObject({ headers: { "Retry-After": { schema: { type: "integer" } } } });
  });

  it("is valid OpenAPI 3.1 by the OpenAPI Initiative's schemas (@seriousme/openapi-schema-validator)", async () => {
    const res = await fetch(inject("openApiValidatorUrl"), { method: "POST", body: JSON.stringify(await document()) });
    expect(res.status).toBe(200);
    const verdict = await res.json<{ valid: boolean; version: string; errors: unknown[] }>();
    expect(verdict.errors).toEqual([]);
    expect(verdict).toMatchObject({ valid: true, version: "3.1" });
  });

  it("stays under 2 KB an operation: parameters and bodies refer to components instead of copying them", async () => {
    // One operation copying its schemas instead of referring to components weighs several KB.
    const text = await (await call("/openapi.json")).text();
    const operations = Object.values(JSON.parse(text).paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(new TextEncoder().encode(text).length / operations).toBeLessThan(2_000);
    expect(text).not.toContain('"$defs"');
  });

  it("is cacheable: a strong ETag, Cache-Control, and 304 on If-None-Match (RFC 9110 section 13.1.2)", async () => {
    const first = await call("/openapi.json");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32,64}"$/);
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    const again = await call("/openapi.json", { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    expect((await call("/openapi.json", { headers: { "if-none-match": '"other"' } })).status).toBe(200);
  });
});
