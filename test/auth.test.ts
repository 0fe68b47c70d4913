import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resolveCredential } from "../workers/core/auth";
import { ApiError } from "../workers/core/errors";
import { testVars } from "./vars";

function request(path: string, headers: Record<string, string> = {}) {
  const req = new Request(new URL(path, testVars.BASE_URL), { headers });
  return { req, url: new URL(req.url) };
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    return err instanceof ApiError ? err.status : 500;
  }
}

describe("API key check (docs/rules.md 5)", () => {
  it.each([
    ["query api_key", `/v1/render?api_key=${testVars.SERVICE_API_KEY}`, {}],
    ["x-service-key", "/v1/render", { "x-service-key": testVars.SERVICE_API_KEY }],
    ["x-legacy-key", "/v1/render", { "x-legacy-key": testVars.SERVICE_API_KEY }],
  ])("accepts the key in %s", async (_, path, headers) => {
    const { req, url } = request(path, headers);
    expect(await status(resolveCredential("api_key", env, req, url, undefined))).toBe(200);
  });

  it.each([
    ["no key", "/v1/render", {}],
    ["a wrong key", "/v1/render?api_key=wrong", { "x-service-key": "also-wrong" }],
    ["a prefix of the key", "/v1/render", { "x-service-key": testVars.SERVICE_API_KEY.slice(0, -1) }],
    ["the admin token", "/v1/render", { "x-service-key": testVars.ADMIN_TOKEN }],
  ])("rejects %s with 401", async (_, path, headers) => {
    const { req, url } = request(path, headers);
    expect(await status(resolveCredential("api_key", env, req, url, undefined))).toBe(401);
  });

  it("rejects every key when none is configured", async () => {
    const { req, url } = request("/v1/render?api_key=");
    expect(await status(resolveCredential("api_key", { ...env, SERVICE_API_KEY: "" }, req, url, undefined))).toBe(401);
  });
});

describe("API key or admin token (api_key_or_admin)", () => {
  it.each([
    ["the admin token", { "x-service-email-token": testVars.ADMIN_TOKEN }, 200],
    ["the API key", { "x-service-key": testVars.SERVICE_API_KEY }, 200],
    ["a wrong admin token beside the API key", { "x-service-email-token": "wrong", "x-service-key": testVars.SERVICE_API_KEY }, 200],
    ["the admin token in the API key's header", { "x-service-key": testVars.ADMIN_TOKEN }, 401],
    ["the API key in the admin token's header", { "x-service-email-token": testVars.SERVICE_API_KEY }, 401],
    ["a wrong admin token alone", { "x-service-email-token": "wrong" }, 401],
    ["nothing", {}, 401],
  ])("%s gives %i", async (_, headers, expected) => {
    const { req, url } = request("/v1/publishers/p/lexicon/entries", headers);
    expect(await status(resolveCredential("api_key_or_admin", env, req, url, undefined))).toBe(expected);
  });

  it("hands on the admin token as the operator, who acts for every publisher", async () => {
    const { req, url } = request("/v1/publishers/p/lexicon/entries", { "x-service-email-token": testVars.ADMIN_TOKEN });
    expect(await resolveCredential("api_key_or_admin", env, req, url, undefined)).toEqual({ caller: { kind: "operator" } });
  });
});

describe("admin check (x-service-email-token)", () => {
  it.each([
    ["the admin token", testVars.ADMIN_TOKEN, 200],
    ["the legacy intake token", testVars.LEGACY_INTAKE_TOKEN, 200],
    ["the API key", testVars.SERVICE_API_KEY, 401],
    ["an empty token", "", 401],
  ])("%s gives %i", async (_, token, expected) => {
    const { req } = request("/v1/admin/x", { "x-service-email-token": token });
    expect(await status(resolveCredential("admin", env, req, new URL(req.url), undefined))).toBe(expected);
  });

  it("does not accept an empty token when the legacy token is unconfigured", async () => {
    const { req } = request("/v1/admin/x", { "x-service-email-token": "" });
    expect(await status(resolveCredential("admin", { ...env, LEGACY_INTAKE_TOKEN: "" }, req, new URL(req.url), undefined))).toBe(401);
  });
});
