import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ApiError } from "../core/errors";
import { testVars } from "../../test/vars";
import { bearerChallenge, bearerGrant, requireScope, resolveBearer } from "./bearer";

/**
 * The bearer challenges of the API (RFC 6750 §3, RFC 9728 §5.1) without a token to validate; the flow
 * that issues and validates real tokens is workers/oauth/oauth-flow.test.ts.
 */

const METADATA = `${testVars.BASE_URL}/.well-known/oauth-protected-resource`;
const request = (authorization?: string) => new Request(`${testVars.BASE_URL}/v1/agent/me`, { headers: authorization ? { Authorization: authorization } : {} });

async function refusal(run: () => Promise<unknown> | unknown): Promise<ApiError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("not refused");
}

describe("bearer challenges", () => {
  it("name the resource's metadata, with an error code only when a token was given", () => {
    expect(bearerChallenge(env)).toEqual({ "WWW-Authenticate": `Bearer resource_metadata="${METADATA}"` });
    expect(bearerChallenge(env, "invalid_token")).toEqual({ "WWW-Authenticate": `Bearer resource_metadata="${METADATA}", error="invalid_token"` });
  });

  it("a route that needs a token: without one, 401 with the challenge and no error code", async () => {
    const err = await refusal(() => resolveBearer("bearer", env, request()));
    expect(err).toMatchObject({ status: 401, message: "a bearer access token is required", headers: bearerChallenge(env) });
  });

  it("an agent's route: without an Authorization header the agent is anonymous", async () => {
    expect(await resolveBearer("agent", env, request())).toBeNull();
    expect(await bearerGrant(request(), env)).toBeNull();
  });

  it.each(["agent", "bearer"] as const)("%s: a bad token or another scheme is a 401 invalid_token, never served as absent", async (auth) => {
    for (const header of ["Bearer not-a-token", "Basic dXNlcjpwYXNz", "Bearer "]) {
      const err = await refusal(() => resolveBearer(auth, env, request(header)));
      expect(err, header).toMatchObject({
        status: 401,
        message: "the access token is invalid, expired or revoked",
        headers: bearerChallenge(env, "invalid_token"),
      });
    }
  });

  it("a token without the scope an operation needs: 403 naming that scope and the metadata", async () => {
    expect(() => requireScope(env, { scopes: ["articles:read"] }, "articles:read")).not.toThrow();
    const err = await refusal(() => requireScope(env, { scopes: ["articles:read"] }, "digest:run"));
    expect(err).toMatchObject({
      status: 403,
      message: "the access token lacks the digest:run scope",
      headers: { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="digest:run", resource_metadata="${METADATA}"` },
    });
  });
});
