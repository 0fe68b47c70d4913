import * as oauth from "oauth4webapi";
import { expect } from "vitest";
import { call } from "./client";
import { testVars } from "../vars";
import { currentCredentials, magicOf, readOutbox, subscribeVia, waitForOutbox } from "./listeners";

/**
 * Test drivers for the OAuth flow: an agent built on oauth4webapi (a certified OAuth 2.1 client
 * library) whose HTTP goes to the Worker under test, and a browser that keeps cookies and submits
 * the sign-in and consent forms as a browser does (same-origin Origin header, the hidden fields).
 */

const WEB = new URL(testVars.WEB_URL);

/** Every oauth4webapi request goes to the Worker under test instead of the network. */
export const viaWorker = {
  [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, BodyInit | undefined>) =>
    call(url, { method: init.method, headers: init.headers, body: init.body, redirect: "manual" }),
};

/** The authorization server's RFC 8414 metadata, discovered from the issuer WEB_URL. */
export async function discover(): Promise<oauth.AuthorizationServer> {
  const res = await oauth.discoveryRequest(WEB, { algorithm: "oauth2", ...viaWorker });
  return oauth.processDiscoveryResponse(WEB, res);
}

/** Registers a public client (RFC 7591) for `redirectUri`. */
export async function register(as: oauth.AuthorizationServer, redirectUri: string, name = "Test Agent"): Promise<oauth.Client> {
  const res = await oauth.dynamicClientRegistrationRequest(
    as,
    { client_name: name, redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] },
    viaWorker,
  );
  return oauth.processDynamicClientRegistrationResponse(res);
}

export interface Authorization {
  url: URL;
  state: string;
  verifier: string;
}

/** An authorization request with PKCE S256 (RFC 7636 §4.2) for `scope`; `extra` overrides parameters. */
export async function authorizationRequest(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  redirectUri: string,
  scope: string,
  extra: Record<string, string> = {},
): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params = {
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: "code",
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { url, state, verifier };
}

/** A page as an agent's user-agent fetches it: redirects are answers to read, not to follow. */
export function open(url: string | URL): Promise<Response> {
  return call(String(url), { redirect: "manual" });
}

/** A browser: a cookie jar, and form posts sent from the site's own pages. */
export class Browser {
  readonly cookies = new Map<string, string>();

  async get(url: string | URL): Promise<Response> {
    return this.keep(await call(String(url), { headers: this.cookieHeader(), redirect: "manual" }));
  }

  async post(url: string | URL, fields: Record<string, string>, origin = WEB.origin): Promise<Response> {
    const headers = { ...this.cookieHeader(), Origin: origin, "Content-Type": "application/x-www-form-urlencoded" };
    return this.keep(await call(new URL(url, WEB).href, { method: "POST", headers, body: new URLSearchParams(fields).toString(), redirect: "manual" }));
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {};
  }

  private keep(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
    return res;
  }
}

/** The value of hidden input `name` in a page. */
export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  if (!match) throw new Error(`no hidden field ${name}`);
  return match[1]
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

/**
 * Signs `browser` in as `email` through the page at `url`: the sign-in form, the mailed link from
 * the local outbox, its confirm button; returns the page the browser lands on afterwards.
 */
export async function signIn(browser: Browser, url: URL, email: string): Promise<Response> {
  const form = await browser.get(url);
  const html = await form.text();
  expect(html).toContain('action="/sign-in"');
  const mailsBefore = (await readOutbox()).length;
  expect((await browser.post("/sign-in", { email, next: hiddenField(html, "next") })).status).toBe(200);
  const [mail] = await waitForOutbox(mailsBefore + 1);
  const link = new URL(new RegExp(`${WEB.origin}/sign-in/confirm\\?\\S+`).exec(mail.text)![0]);
  expect(link.searchParams.get("magic")).toBe(magicOf(mail));
  const confirm = await (await browser.get(link)).text();
  const done = await browser.post("/sign-in/confirm", { magic: hiddenField(confirm, "magic"), next: hiddenField(confirm, "next") });
  expect(done.status).toBe(303);
  return browser.get(new URL(done.headers.get("Location")!, WEB));
}

/** Answers the consent page `page` (200) in `browser`; returns the page and the redirect to the client. */
async function answer(browser: Browser, page: Response, decision: "allow" | "deny") {
  expect(page.status).toBe(200);
  const html = await page.text();
  const answered = await browser.post("/oauth/authorize", { handle: hiddenField(html, "handle"), csrf: hiddenField(html, "csrf"), decision });
  expect(answered.status).toBe(302);
  return { html, location: new URL(answered.headers.get("Location")!) };
}

/** Subscribes `email`, signs in on the consent page of `auth` and answers it; returns the redirect to the client. */
export async function consent(auth: Authorization, email: string, decision: "allow" | "deny", browser = new Browser()) {
  const subscribed = await subscribeVia(email);
  const { html, location } = await answer(browser, await signIn(browser, auth.url, email), decision);
  // The sign-in proved the address and replaced the subscribe's credentials.
  return { listener: { ...subscribed, ...(await currentCredentials(email)) }, html, location, browser };
}

/** Answers the consent page of `auth` in a `browser` already signed in (an app asking again, e.g. to step up). */
export function consentSignedIn(auth: Authorization, browser: Browser, decision: "allow" | "deny") {
  return browser.get(auth.url).then((page) => answer(browser, page, decision));
}

/** The agent's redirect URI in tests: a loopback one, as a native MCP client's is (RFC 8252 §7.3). */
export const REDIRECT = "http://127.0.0.1/callback";

/** Registers, authorizes as a new subscriber `email` with `scope`, and exchanges the code: the whole happy path. */
export async function tokensFor(email: string, scope = "articles:read subscriptions:write") {
  const as = await discover();
  const client = await register(as, REDIRECT);
  const auth = await authorizationRequest(as, client, REDIRECT, scope);
  const { location, listener, browser } = await consent(auth, email, "allow");
  const params = oauth.validateAuthResponse(as, client, location, auth.state);
  const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, auth.verifier, viaWorker);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
  return { as, client, tokens, listener, location, browser };
}
