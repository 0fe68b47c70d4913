import { describe, expect, it } from "vitest";
import { router } from "../workers/router";
import { call } from "./support/client";

interface Doc {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
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
    const registered = router.routes
      .filter(([method]) => method !== "ALL")
      .map(([method, , , path]) => `${method} ${path!.replace(/:(\w+)/g, "{$1}")}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(registered.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
  });

  it("resolves every schema reference", async () => {
    const doc = await document();
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(doc.components.schemas, ref).toHaveProperty(ref);
  });
});
