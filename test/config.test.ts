/// <reference types="vite/client" />
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { config, configProblems } from "../workers/core/config";
import { renderConfig } from "../workers/render/config";
import { call } from "./support/client";
import wrangler from "../wrangler.toml?raw";

/** docs/configuration.md "Configuration": one schema per Worker, every var, secret and binding, named by part. */
describe("configuration", () => {
  it("accepts the test configuration and reports no problem on /v1/health", async () => {
    expect(configProblems(env)).toEqual([]);
    const body = await (await call("/v1/health")).json<{ configuration: unknown }>();
    expect(body.configuration).toEqual({ ok: true, problems: [] });
  });

  it("names each bad variable and its part, never its value", () => {
    const bad = { ...env, BASE_URL: "not a url", MAIL_OUTBOX: "yes-secret-value", RATE_LIMIT_READ_PER_MINUTE: "-1", AUDIO: undefined };
    const problems = configProblems(bad);
    expect(problems.map((p) => [p.part, p.variable])).toEqual(
      expect.arrayContaining([
        ["addresses", "BASE_URL"],
        ["mail", "MAIL_OUTBOX"],
        ["limits", "RATE_LIMIT_READ_PER_MINUTE"],
        ["bindings", "AUDIO"],
      ]),
    );
    expect(JSON.stringify(problems)).not.toContain("yes-secret-value");
    expect(() => config(bad)).toThrow(/BASE_URL \(addresses\)/);
  });

  // The tests run with test/vars.ts, which repeats these numbers: here the deployed ones are read.
  it("deploys README's limits: 60 reads, 30 admin and 600 feed requests a minute per IP, a render-now cap of 3", () => {
    const documented = {
      RATE_LIMIT_READ_PER_MINUTE: 60,
      RATE_LIMIT_ADMIN_PER_MINUTE: 30,
      RATE_LIMIT_FEEDS_PER_MINUTE: 600,
      MAX_IN_FLIGHT_RENDERS_PER_LISTENER: 3,
    };
    const unset = { ...env } as Record<string, unknown>;
    for (const [name, value] of Object.entries(documented)) {
      expect(new RegExp(`^${name} = "(\\d+)"$`, "m").exec(wrangler)?.[1], `wrangler.toml ${name}`).toBe(String(value));
      delete unset[name];
    }
    expect(config(unset)).toMatchObject(documented);
  });

  it("checks the render Worker's bindings and keys with its own schema", () => {
    expect(() => renderConfig({ ...env, OPENAI_API_KEY: 42 })).toThrow(/OPENAI_API_KEY \(providers\)/);
    expect(() => renderConfig({ OPENAI_API_KEY: "" })).toThrow(/STORE \(bindings\)/);
  });
});
