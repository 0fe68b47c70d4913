import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { ApiError } from "../core/errors";
import { adminLogin } from "./routes/post.admin.auth.login";

describe("POST /v1/admin/auth/login (docs/rules.md 5)", () => {
  const login = (email: string, password: string) => call("/v1/admin/auth/login", jsonBody("POST", { email, password }));

  /** The login's status under a changed configuration (the Worker under test has one fixed env). */
  async function statusWith(over: Partial<Env>): Promise<number> {
    const input = { env: { ...env, ...over }, body: { email: testVars.ADMIN_EMAIL, password: testVars.ADMIN_PASSWORD } };
    try {
      return (await adminLogin.handle(input as unknown as Parameters<typeof adminLogin.handle>[0])).status;
    } catch (err) {
      return err instanceof ApiError ? err.status : 500;
    }
  }

  it("answers 200 with the admin token for the configured e-mail and password", async () => {
    const res = await login("Admin@Example.test", testVars.ADMIN_PASSWORD);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ token: testVars.ADMIN_TOKEN, header: "x-service-email-token" });
  });

  it("answers the same 401 for a bad e-mail and a bad password", async () => {
    const badEmail = await login("someone@example.test", testVars.ADMIN_PASSWORD);
    const badPassword = await login(testVars.ADMIN_EMAIL, "wrong");
    expect(badEmail.status).toBe(401);
    expect(badPassword.status).toBe(401);
    // Alike but for the request id, which names each request.
    const { request_id: first, ...emailBody } = await badEmail.json<{ request_id: string }>();
    const { request_id: second, ...passwordBody } = await badPassword.json<{ request_id: string }>();
    expect(emailBody).toEqual(passwordBody);
    expect(first).not.toBe(second);
  });

  it.each(["ADMIN_EMAIL", "ADMIN_PASSWORD", "ADMIN_TOKEN"] as const)("answers 503 when %s is unconfigured", async (name) => {
    expect(await statusWith({})).toBe(200);
    expect(await statusWith({ [name]: "" })).toBe(503);
  });
});
