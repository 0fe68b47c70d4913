import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addArticle, addListener } from "./support/articles";
import { methodsOf } from "../workers/core/route";
import { database, listeners, renderJobs } from "../workers/db";
import { signWebhook } from "../workers/core/webhook-signature";
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
  "true": "true",
  "null": "null",
};

function headersFor(auth: string): Record<string, string> {
  if (auth === "api_key") return apiKeyHeaders;
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
  expect(detail.map((d) => d.loc), what).toEqual([["body"]]);
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
