import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { addArticle, addListener } from "./support/articles";
import { SAMPLE_HINTS, sampleOf, stringLeaves, withLeaf, type SchemaNode } from "./support/sample-body";
import { methodsOf } from "../workers/core/route";
import { database, listeners, renderJobs } from "../workers/db";
import { signWebhook } from "../workers/core/auth";
import { routes } from "../workers/router";
import { adminHeaders, apiKeyHeaders, call } from "./support/client";
import { testVars } from "./vars";

/**
 * A JSON body that is not the object a route wants is a 422 on ["body"], whatever the object's
 * fields (issue 16, item 2: `[]` passed as an object whose optional fields were all absent).
 * Generated from the route table: every route with a body gets every wrong shape.
 */

const DEEP = 10_000;
const WRONG_SHAPES: Record<string, string> = {
  "[]": "[]",
  "[{}]": "[{}]",
  "[{...}]": '[{"count":1,"active":false,"email":"a@example.test"}]',
  [`arrays ${DEEP} deep`]: "[".repeat(DEEP) + "]".repeat(DEEP),
  "a string": '"text"',
  "a number": "42",
  true: "true",
  null: "null",
};

function headersFor(auth: string): Record<string, string> {
  if (auth === "api_key" || auth === "api_key_or_admin") return apiKeyHeaders;
  if (auth === "admin") return adminHeaders;
  return {};
}

const withBody = routes.filter((r) => r.body).flatMap((r) => methodsOf(r).map((method) => [`${method} ${r.path}`, r, method] as const));

/** POSTs `raw` to a route, signed when the route is the publish webhook. */
async function send(path: string, method: string, auth: string, raw: string, ip: string): Promise<Response> {
  const headers: Record<string, string> = { ...headersFor(auth), "content-type": "application/json" };
  if (auth === "webhook_signature") headers["x-legacy-signature"] = await signWebhook(testVars.PUBLISH_WEBHOOK_SECRET, new TextEncoder().encode(raw));
  return call(path, { method, headers, body: raw, ip });
}

async function expectBodyRefused(res: Response, what: string) {
  expect(res.status, what).toBe(422);
  const { detail } = (await res.json()) as { detail: { loc: unknown[] }[] };
  expect(
    detail.map((d) => d.loc),
    what,
  ).toEqual([["body"]]);
}

describe("JSON bodies of the wrong shape", () => {
  it("covers every route with a body", () => {
    expect(withBody.length).toBeGreaterThan(20);
  });

  it.each(withBody)("%s refuses a body that is not an object", async (_, r, method) => {
    // A listener path needs a real token: the route table resolves it before the body is read.
    const token = r.auth === "listener_token" ? (await addListener()).token : "x";
    const path = r.path.replace(/:(\w+)/g, (_, name: string) => (name === "token" ? token : "x"));
    for (const [what, raw] of Object.entries(WRONG_SHAPES)) {
      await expectBodyRefused(await send(path, method, r.auth, raw, `198.19.${Math.floor(Math.random() * 250)}.1`), what);
    }
  });
});

describe("a refused body changes nothing", () => {
  it("PATCH /v1/listeners/{token} with [] leaves the listener as it was", async () => {
    const { listener, token } = await addListener({ active: true, verticals: ["tech"] });
    await expectBodyRefused(await send(`/v1/listeners/${token}`, "PATCH", "listener_token", "[]", "198.19.1.1"), "[]");
    const after = await database(env).query.listeners.findFirst({ where: eq(listeners.id, listener.id) });
    expect(after).toEqual(listener);
  });

  it("pre-warm with [] or [{...}] queues no render", async () => {
    const { token } = await addListener({ verticals: ["tech"] });
    await addArticle({ vertical: "tech" });
    for (const raw of ["[]", '[{"count":1}]']) {
      await expectBodyRefused(await send(`/v1/admin/listeners/${token}/pre-warm`, "POST", "admin", raw, "198.19.1.2"), raw);
    }
    expect(await database(env).$count(renderJobs)).toBe(0);
  });
});

/**
 * Issue 29, item 7: bodies a fuzzer sends, on every route that takes one. Each is answered 2xx or
 * 4xx, never 5xx, alone and all at once, and none reaches Object.prototype. Per route: a sample body
 * built from its schema (support/sample-body.ts), then that body with prototype keys, with each text
 * field in turn empty or an injection string, and the body as Latin-1 bytes, which are not UTF-8
 * (a 422, never text decoded with replacement characters).
 */
const INJECTIONS = ["", "' OR 1=1 --", '"; DROP TABLE articles; --', "<script>alert(1)</script>", "${7*7}{{7*7}}%s%n", "../../../etc/passwd", "\u202eevil"];
const POLLUTION = { polluted: "yes" };

function hostileBodies(schema: SchemaNode, base: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {
    "__proto__ only": `{"__proto__":${JSON.stringify(base)}}`,
    "__proto__ beside the fields": `${JSON.stringify(base).slice(0, -1)}${Object.keys(base).length ? "," : ""}"__proto__":${JSON.stringify(POLLUTION)}}`,
    "constructor.prototype only": JSON.stringify({ constructor: { prototype: base } }),
    "constructor.prototype beside the fields": JSON.stringify({ ...base, constructor: { prototype: POLLUTION } }),
    "prototype beside the fields": JSON.stringify({ ...base, prototype: POLLUTION }),
    "toString and valueOf beside the fields": JSON.stringify({ ...base, toString: "x", valueOf: 1, hasOwnProperty: null }),
  };
  for (const leaf of stringLeaves(schema)) {
    for (const text of INJECTIONS) out[`${leaf.join(".")} = ${JSON.stringify(text)}`] = JSON.stringify(withLeaf(base, leaf, text));
  }
  return out;
}

/** `raw` with every "#" (which no sample or hostile body holds) replaced by the Latin-1 byte of "é". */
function latin1(raw: string): Uint8Array {
  return new TextEncoder().encode(raw).map((b) => (b === 0x23 ? 0xe9 : b));
}

async function sendBytes(path: string, method: string, auth: string, raw: Uint8Array, ip: string): Promise<Response> {
  const headers: Record<string, string> = { ...headersFor(auth), "content-type": "application/json" };
  if (auth === "webhook_signature") headers["x-legacy-signature"] = await signWebhook(testVars.PUBLISH_WEBHOOK_SECRET, raw);
  return call(path, { method, headers, body: raw, ip });
}

const randomIp = () => `198.19.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

describe("hostile bodies on every route that takes one (issue 29, item 7)", () => {
  it("builds a sample body that passes its route's schema for most routes", () => {
    // Guards the generator: hostile variants of an invalid sample would only ever test validation.
    const valid = withBody.filter(([, r]) => v.safeParse(r.body!, sampleOf(r.body as unknown as SchemaNode, SAMPLE_HINTS)).success);
    expect(valid.length).toBeGreaterThan(withBody.length * 0.7);
  });

  it.each(withBody)("%s answers every hostile body with 2xx or 4xx, alone and all at once", async (_, r, method) => {
    const { token } = await addListener();
    // Render-now and plays address an article by slug: one exists, so their bodies reach the handler.
    await addArticle({ slug: "x" });
    const path = r.path.replace(/:(\w+)/g, (_, name: string) => (name === "token" ? token : "x"));
    const schema = r.body as unknown as SchemaNode;
    const base = sampleOf(schema, { ...SAMPLE_HINTS, listener_token: token }) as Record<string, unknown>;
    const bodies = Object.entries(hostileBodies(schema, base));
    for (const [what, raw] of bodies) {
      const res = await send(path, method, r.auth, raw, randomIp());
      expect(res.status, what).toBeLessThan(500);
      expect(res.status, what).toBeGreaterThanOrEqual(200);
    }
    const together = await Promise.all(bodies.slice(0, 20).map(([, raw]) => send(path, method, r.auth, raw, randomIp())));
    expect(together.map((res) => res.status).filter((status) => status >= 500)).toEqual([]);
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();

    // Not UTF-8: a clear 422 on the body, alone and at once.
    const bytes = latin1(JSON.stringify({ ...base, caf: "caf#" }));
    for (const res of [
      await sendBytes(path, method, r.auth, bytes, randomIp()),
      ...(await Promise.all(Array.from({ length: 10 }, () => sendBytes(path, method, r.auth, bytes, randomIp())))),
    ]) {
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: { loc: unknown[]; type: string }[] }).detail).toEqual([
        expect.objectContaining({ loc: ["body"], type: "utf8_invalid" }),
      ]);
    }
  });
});
