import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { methodsOf, type AuthKind, type Route } from "../workers/core/route";
import { routes } from "../workers/router";
import { call } from "./support/client";

/**
 * Generated from the route table: every route that declares a credential refuses a request without
 * it (unless the credential is optional, as an agent's bearer token is) and one with a wrong value,
 * whatever else the request carries. Keys, admin tokens and signatures
 * are 401 (docs/rules.md "Rules" 7); a path token that opens nothing is a 404, like an unknown resource.
 */

/** A syntactically valid value for each path parameter, so only the credential can fail. */
function pathOf(r: Route, token: string): string {
  return r.path.replace(/:(\w+)/g, (_, name: string) => (name === "token" ? token : "some-slug"));
}

const WRONG: Record<Exclude<AuthKind, "none">, { headers: Record<string, string>; token?: string; status: number }> = {
  api_key: { headers: { "x-service-key": "not-the-key", "x-legacy-key": "not-the-key" }, status: 401 },
  admin: { headers: { "x-service-email-token": "not-the-admin-token" }, status: 401 },
  api_key_or_admin: { headers: { "x-service-key": "not-the-key", "x-service-email-token": "not-the-admin-token" }, status: 401 },
  webhook_signature: { headers: { "x-legacy-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }, status: 401 },
  listener_token: { headers: {}, token: "no-such-listener-token", status: 404 },
  feed_token: { headers: {}, token: "no-such-feed-token", status: 404 },
  bearer: { headers: { Authorization: "Bearer not-a-token" }, status: 401 },
  agent: { headers: { Authorization: "Bearer not-a-token" }, status: 401 },
  // A page for a signed-in listener sends a browser without a live session to sign in (workers/web/page-errors.ts).
  session: { headers: { Cookie: "__Host-session=not-a-session" }, status: 303 },
  // A page for anyone: an unknown session cookie is a signed-out visitor, answered as one (checked below).
  browser: { headers: { Cookie: "__Host-session=not-a-session" }, status: 0 },
  // A studio page sends a browser without a live studio session to the studio's sign-in (workers/studio/studio-errors.ts).
  studio: { headers: { Cookie: "__Host-studio=not-a-session" }, status: 303 },
  // An API read a studio member may make too: wrong keys and a studio cookie that opens no session.
  api_key_or_member: {
    headers: { "x-service-key": "not-the-key", "x-service-email-token": "not-the-admin-token", Cookie: "__Host-studio=not-a-session" },
    status: 401,
  },
};

/**
 * Credentials a route may go without: an agent without a token is served anonymously, and pays or
 * signs in per call; a `browser` page serves signed-out visitors.
 */
const OPTIONAL: ReadonlySet<AuthKind> = new Set(["agent", "browser"]);

const guarded = routes.flatMap((r) =>
  r.auth === "none" ? [] : methodsOf(r).map((method) => ({ route: r, method, auth: r.auth as Exclude<AuthKind, "none"> })),
);

describe("every route that declares a credential refuses requests without it", () => {
  it("covers every kind of credential", () => {
    expect(new Set(guarded.map((g) => g.auth))).toEqual(new Set(Object.keys(WRONG)));
  });

  it.each(guarded.map((g) => [`${g.method} ${g.route.path} (${g.auth})`, g] as const))("%s", async (_, { route, method, auth }) => {
    const wrong = WRONG[auth];
    const body = method === "GET" || method === "HEAD" ? undefined : JSON.stringify({});
    const headers = { "content-type": "application/json" };
    // Not following redirects: a page's refusal is the redirect to sign in.
    const missing = await call(pathOf(route, "missing-token"), { method, body, headers, redirect: "manual" });
    const bad = await call(pathOf(route, wrong.token ?? "x"), { method, body, headers: { ...headers, ...wrong.headers }, redirect: "manual" });
    if (auth === "listener_token" || auth === "feed_token") {
      // A path token cannot be left out; an unknown one is refused.
      expect(missing.status).toBe(404);
    } else if (auth === "session") {
      expect(missing.status).toBe(303);
      expect(new URL(missing.headers.get("Location")!, "https://web.test").pathname).toBe("/sign-in");
    } else if (auth === "studio") {
      expect(missing.status).toBe(303);
      expect(new URL(missing.headers.get("Location")!, "https://web.test").pathname).toBe("/studio/sign-in");
    } else if (auth === "browser") {
      // A cookie that opens no session is no session: the same answer as none.
      expect(bad.status).toBe(missing.status);
      return;
    }
    const oauth = auth === "bearer" || auth === "agent";
    // The agent surface checks its token once the inputs are valid (core/http.ts run): a body the
    // route refuses is its 422 first, so only a route whose body `{}` satisfies shows the 401 here.
    if (oauth && body && route.body && !v.safeParse(route.body, {}).success) {
      expect([missing.status, bad.status]).toEqual([422, 422]);
      return;
    }
    if (!OPTIONAL.has(auth) && !["listener_token", "feed_token", "session", "studio"].includes(auth)) expect(missing.status).toBe(401);
    expect(bad.status).toBe(wrong.status);
    if (oauth) {
      // RFC 9728 §5.1: the challenge names the protected resource's metadata, so the client finds the authorization server.
      expect(bad.headers.get("WWW-Authenticate")).toMatch(/^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource", error="invalid_token"$/);
    }
  });
});
