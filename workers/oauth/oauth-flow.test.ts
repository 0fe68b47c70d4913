import { env } from "cloudflare:workers";
import * as oauth from "oauth4webapi";
import { afterEach, describe, expect, it, vi } from "vitest";
import { testVars } from "../../test/vars";
import { errorResponse } from "../core/errors";
import { bearerGrant, requireScope } from "./bearer";
import { listGrants } from "./grants";
import { authorizationRequest, consent, consentSignedIn, discover, open, REDIRECT, register, tokensFor, viaWorker } from "../../test/support/oauth-agent";

/**
 * The authorization-code flow end to end with oauth4webapi, each test named after the clause it
 * proves.
 */

const METADATA = `${testVars.BASE_URL}/.well-known/oauth-protected-resource`;

/** A request to the API carrying `token`, as an agent sends it (RFC 6750 §2.1). */
const withToken = (token: string) => new Request(`${testVars.BASE_URL}/mcp/v1`, { headers: { Authorization: `Bearer ${token}` } });

/** What the API answers for the request's grant: the grant, or the rendered error. */
async function grantOf(token: string) {
  try {
    return await bearerGrant(withToken(token), env);
  } catch (err) {
    return errorResponse(err, env);
  }
}

describe("discovery", () => {
  it("publishes RFC 8414 metadata at {WEB_URL}/.well-known/oauth-authorization-server: S256 only, the four scopes", async () => {
    const as = await discover();
    expect(as.issuer).toBe(testVars.WEB_URL);
    expect(as.authorization_endpoint).toBe(`${testVars.WEB_URL}/oauth/authorize`);
    expect(as.token_endpoint).toBe(`${testVars.WEB_URL}/oauth/token`);
    expect(as.registration_endpoint).toBe(`${testVars.WEB_URL}/oauth/register`);
    expect(as.revocation_endpoint).toBe(`${testVars.WEB_URL}/oauth/token`);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.scopes_supported).toEqual(["articles:read", "subscriptions:write", "digest:run", "links:write"]);
    expect(as.response_types_supported).toEqual(["code"]);
  });

  it("publishes RFC 9728 metadata at {BASE_URL}/.well-known/oauth-protected-resource naming the issuer", async () => {
    const res = await oauth.resourceDiscoveryRequest(new URL(testVars.BASE_URL), viaWorker);
    const meta = await oauth.processResourceDiscoveryResponse(new URL(testVars.BASE_URL), res);
    expect(meta.resource).toBe(testVars.BASE_URL);
    expect(meta.authorization_servers).toEqual([testVars.WEB_URL]);
    expect(meta.bearer_methods_supported).toEqual(["header"]);
    expect(meta.scopes_supported).toEqual(["articles:read", "subscriptions:write", "digest:run", "links:write"]);
  });
});

describe("authorization code with PKCE (OAuth 2.1 §4.1, RFC 7636)", () => {
  it("issues tokens that act for the listener who allowed them, within the scopes allowed", async () => {
    const { tokens, listener, client, location } = await tokensFor("ada@example.test");
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("iss")).toBe(testVars.WEB_URL); // RFC 9207
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toBeTruthy();
    const id = await env.DB.prepare("select id from listeners where email = ?").bind(listener.email).first<number>("id");
    expect(await grantOf(tokens.access_token)).toEqual({ listenerId: id, clientId: client.client_id, scopes: ["articles:read", "subscriptions:write"] });
  });

  it("serves anonymous requests: no Authorization header is no grant, not an error", async () => {
    expect(await bearerGrant(new Request(`${testVars.BASE_URL}/mcp/v1`), env)).toBeNull();
  });

  it("refuses a plain PKCE challenge with invalid_request at the client (RFC 7636 §4.3, OAuth 2.1 §4.1.1)", async () => {
    const as = await discover();
    const client = await register(as, REDIRECT);
    const auth = await authorizationRequest(as, client, REDIRECT, "articles:read", {
      code_challenge: "plain-verifier-".repeat(4),
      code_challenge_method: "plain",
    });
    const res = await open(auth.url);
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("Location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("state")).toBe(auth.state);
  });

  it("refuses an authorization request without a PKCE challenge", async () => {
    const as = await discover();
    const client = await register(as, REDIRECT);
    const auth = await authorizationRequest(as, client, REDIRECT, "articles:read");
    auth.url.searchParams.delete("code_challenge");
    auth.url.searchParams.delete("code_challenge_method");
    const back = new URL((await open(auth.url)).headers.get("Location")!);
    expect(back.searchParams.get("error")).toBe("invalid_request");
  });

  it("refuses a code with the wrong verifier (invalid_grant, RFC 7636 §4.6)", async () => {
    const as = await discover();
    const client = await register(as, REDIRECT);
    const auth = await authorizationRequest(as, client, REDIRECT, "articles:read");
    const { location } = await consent(auth, "wrong@example.test", "allow");
    const params = oauth.validateAuthResponse(as, client, location, auth.state);
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, oauth.generateRandomCodeVerifier(), viaWorker);
    await expect(oauth.processAuthorizationCodeResponse(as, client, res)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("accepts a code once: a reused code is invalid_grant (OAuth 2.1 §4.1.3)", async () => {
    const as = await discover();
    const client = await register(as, REDIRECT);
    const auth = await authorizationRequest(as, client, REDIRECT, "articles:read");
    const { location } = await consent(auth, "reuse@example.test", "allow");
    const params = oauth.validateAuthResponse(as, client, location, auth.state);
    const exchange = () => oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, auth.verifier, viaWorker);
    await oauth.processAuthorizationCodeResponse(as, client, await exchange());
    await expect(oauth.processAuthorizationCodeResponse(as, client, await exchange())).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("never redirects to an unregistered redirect URI: exact matching (OAuth 2.1 §2.3.1)", async () => {
    const as = await discover();
    const client = await register(as, "https://agent.example/callback");
    for (const foreign of ["https://evil.example/callback", "https://agent.example/callback/x", "https://agent.example/callback?x=1"]) {
      const auth = await authorizationRequest(as, client, foreign, "articles:read");
      const res = await open(auth.url);
      expect(res.status, foreign).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
    }
  });

  it("lets a loopback redirect URI use any port, but nothing else may differ (RFC 8252 §7.3)", async () => {
    const as = await discover();
    const client = await register(as, REDIRECT);
    const anyPort = await authorizationRequest(as, client, "http://127.0.0.1:53219/callback", "articles:read");
    const page = await open(anyPort.url);
    expect(page.status).toBe(200); // the sign-in page: the request passed validation
    const otherPath = await authorizationRequest(as, client, "http://127.0.0.1:53219/other", "articles:read");
    expect((await open(otherPath.url)).status).toBe(400);
  });

  it("refuses an unknown scope with invalid_scope (RFC 6749 §4.1.2.1)", async () => {
    const as = await discover();
    const client = await register(as, REDIRECT);
    const auth = await authorizationRequest(as, client, REDIRECT, "articles:read admin");
    const back = new URL((await open(auth.url)).headers.get("Location")!);
    expect(back.searchParams.get("error")).toBe("invalid_scope");
    expect(back.searchParams.get("state")).toBe(auth.state);
  });
});

describe("scopes (RFC 6750 §3.1)", () => {
  it("answers 403 insufficient_scope naming the scope a token lacks", async () => {
    const { tokens } = await tokensFor("scoped@example.test", "articles:read");
    const grant = await bearerGrant(withToken(tokens.access_token), env);
    expect(() => requireScope(env, grant!, "articles:read")).not.toThrow();
    let res: Response | undefined;
    try {
      requireScope(env, grant!, "digest:run");
    } catch (err) {
      res = errorResponse(err, env);
    }
    expect(res?.status).toBe(403);
    expect(res?.headers.get("WWW-Authenticate")).toBe(`Bearer error="insufficient_scope", scope="digest:run", resource_metadata="${METADATA}"`);
    expect(await res?.json()).toMatchObject({ code: "forbidden" });
  });

  it("grants articles:read when the client asks for no scope (RFC 6749 §3.3 default)", async () => {
    const { tokens } = await tokensFor("default@example.test", "");
    expect(tokens.scope).toBe("articles:read");
  });
});

describe("incremental consent: an app stepping up after insufficient_scope (MCP authorization, Scope Challenge Handling)", () => {
  /** The token an app gets when `browser`'s listener answers a new authorization request of `client` for `scope`. */
  async function stepUp(as: oauth.AuthorizationServer, client: oauth.Client, browser: Awaited<ReturnType<typeof tokensFor>>["browser"], scope: string) {
    const auth = await authorizationRequest(as, client, REDIRECT, scope);
    const { html, location } = await consentSignedIn(auth, browser, "allow");
    const params = oauth.validateAuthResponse(as, client, location, auth.state);
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, auth.verifier, viaWorker);
    return { html, tokens: await oauth.processAuthorizationCodeResponse(as, client, res) };
  }

  it("asks only for the new scope, shows what the app keeps, and issues a token with both", async () => {
    const { as, client, browser, tokens: first } = await tokensFor("step@example.test", "articles:read");
    const { html, tokens } = await stepUp(as, client, browser, "articles:read subscriptions:write");
    const asked = html.slice(html.indexOf("It now also asks to:"), html.indexOf("You already allowed it to:"));
    expect(asked).toContain("Subscribe you to topics");
    expect(asked).not.toContain("Search and read articles");
    expect(html.slice(html.indexOf("You already allowed it to:"))).toContain("Search and read articles, and get their audio, as you");
    expect(html).not.toContain("It will be able to:");
    expect(tokens.scope).toBe("articles:read subscriptions:write");
    // One grant per app: the stepped-up one replaces the first, whose token stops working.
    const id = await env.DB.prepare("select id from listeners where email = ?").bind("step@example.test").first<number>("id");
    expect((await listGrants(env, id!)).map((g) => g.scope)).toEqual([["articles:read", "subscriptions:write"]]);
    expect(await grantOf(first.access_token)).toBeInstanceOf(Response);
  });

  it("keeps what the listener allowed before when the app asks only for the missing scope", async () => {
    const { as, client, browser } = await tokensFor("keep@example.test", "articles:read");
    const { html, tokens } = await stepUp(as, client, browser, "digest:run");
    expect(html).toContain("It now also asks to:");
    expect(tokens.scope).toBe("articles:read digest:run");
  });

  it("asks for nothing new when the app asks again for what it holds", async () => {
    const { as, client, browser } = await tokensFor("again@example.test", "articles:read");
    const { html, tokens } = await stepUp(as, client, browser, "articles:read");
    expect(html).toContain("It asks for nothing new.");
    expect(tokens.scope).toBe("articles:read");
  });

  it("treats another app as new: nothing is carried between apps", async () => {
    const { as, browser } = await tokensFor("apps@example.test", "articles:read subscriptions:write");
    const other = await register(as, REDIRECT, "Another Agent");
    const { html, tokens } = await stepUp(as, other, browser, "digest:run");
    expect(html).toContain("It will be able to:");
    expect(html).not.toContain("You already allowed it to:");
    expect(tokens.scope).toBe("digest:run");
  });
});

describe("refresh tokens rotate (OAuth 2.1 §4.3.1)", () => {
  it("refuses a refresh token once its successor has been used", async () => {
    const { as, client, tokens } = await tokensFor("rotate@example.test");
    const refresh = async (token: string) =>
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, viaWorker));
    const second = await refresh(tokens.refresh_token!);
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    expect(await grantOf(second.access_token)).toMatchObject({ scopes: ["articles:read", "subscriptions:write"] });
    const third = await refresh(second.refresh_token!);
    await expect(refresh(tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect(third.refresh_token).toBeTruthy();
  });
});

/** docs/agents/oauth.md "OAuth": "a grant lapses after 30 days without a refresh"; access tokens live 15 minutes. */
describe("a grant lapses after 30 days without a refresh (OAuth 2.1 §4.3.1, RFC 6819 §5.2.2.3)", () => {
  const DAY = 24 * 3_600_000;
  afterEach(() => vi.useRealTimers());

  // planted: drop `refreshTokenIdleTTL` from the provider's options in server.ts (the grant then
  // lapses 30 days after it was given, however often it was refreshed).
  it("each refresh moves the grant's end to 30 days later; a refresh token idle for 30 days is invalid_grant", async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const { as, client, tokens } = await tokensFor("idle@example.test");
    const refresh = async (token: string) =>
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, viaWorker));
    const listenerId = Number((await bearerGrant(withToken(tokens.access_token), env))?.listenerId);
    const expiresAt = async () => (await listGrants(env, listenerId))[0]?.expiresAt;
    // Given 30 days from now: in the second of `start` or the next one (one full run in four saw the
    // next, as the flow that gives the grant crossed a second boundary).
    expect(Number(await expiresAt()) - Math.floor((start + 30 * DAY) / 1000)).toBeOneOf([0, 1]);

    vi.setSystemTime(start + 20 * DAY);
    const second = await refresh(tokens.refresh_token!);
    expect(second.expires_in).toBe(900);
    expect(await expiresAt()).toBe(Math.floor((start + 50 * DAY) / 1000));
    // Day 40: past 30 days from the grant, within 30 days of the last refresh.
    vi.setSystemTime(start + 40 * DAY);
    const third = await refresh(second.refresh_token!);
    expect(await grantOf(third.access_token)).toMatchObject({ scopes: ["articles:read", "subscriptions:write"] });

    vi.setSystemTime(start + 70 * DAY + 1000);
    await expect(refresh(third.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });
});

describe("revocation (RFC 7009)", () => {
  it("revokes the grant with its refresh token: the access token then gets 401 with the resource metadata", async () => {
    const { as, client, tokens } = await tokensFor("revoke@example.test");
    const res = await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, {
      ...viaWorker,
      additionalParameters: { token_type_hint: "refresh_token" },
    });
    await oauth.processRevocationResponse(res);
    const denied = await grantOf(tokens.access_token);
    expect(denied).toBeInstanceOf(Response);
    expect((denied as Response).status).toBe(401);
    expect((denied as Response).headers.get("WWW-Authenticate")).toBe(`Bearer resource_metadata="${METADATA}", error="invalid_token"`);
  });

  it("answers an invalid token and a non-Bearer header with the same 401 challenge (RFC 9728 §5.1)", async () => {
    for (const header of ["Bearer 1:abc:def", "Bearer not-a-token", "Basic dXNlcjpwYXNz"]) {
      const req = new Request(`${testVars.BASE_URL}/mcp/v1`, { headers: { Authorization: header } });
      const res = await bearerGrant(req, env).then(
        () => undefined,
        (err) => errorResponse(err, env),
      );
      expect(res?.status, header).toBe(401);
      expect(res?.headers.get("WWW-Authenticate"), header).toBe(`Bearer resource_metadata="${METADATA}", error="invalid_token"`);
    }
  });
});
