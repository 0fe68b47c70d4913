import { env } from "cloudflare:workers";
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { authorizationRequest, Browser, consent, discover, hiddenField, open, REDIRECT, register, signIn } from "../../test/support/oauth-agent";
import { magicOf, readOutbox, subscribeVia, waitForOutbox } from "../../test/support/listeners";

/** The consent page at {WEB_URL}/oauth/authorize (docs/agents/oauth.md "OAuth for agents"): sign-in, what it shows, and what it refuses. */

async function pendingAuthorization(scope = "articles:read digest:run") {
  const as = await discover();
  const client = await register(as, REDIRECT, "Podcast <Helper>");
  return { as, client, auth: await authorizationRequest(as, client, REDIRECT, scope) };
}

/** A browser signed in as `email`, on the consent page of a fresh authorization request. */
async function onConsentPage(email: string) {
  const pending = await pendingAuthorization();
  await subscribeVia(email);
  const browser = new Browser();
  const page = await signIn(browser, pending.auth.url, email);
  return { ...pending, browser, page, html: await page.text() };
}

describe("consent page", () => {
  it("asks a signed-out browser to sign in by e-mail first, and comes back to the request", async () => {
    const { auth } = await pendingAuthorization();
    const res = await open(auth.url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<input type="email" name="email"');
    expect(hiddenField(html, "next")).toBe(auth.url.pathname + auth.url.search);
  });

  it("shows the client's name (escaped), its redirect host, each scope in plain words, Allow and Deny", async () => {
    const { html, page } = await onConsentPage("show@example.test");
    expect(page.status).toBe(200);
    expect(html).toContain("<strong>Podcast &lt;Helper&gt;</strong> asks to act for you");
    expect(html).not.toContain("<Helper>");
    expect(html).toContain("sent to <strong>127.0.0.1</strong>");
    expect(html).toContain("an app on your own computer");
    expect(html).toContain("Search and read articles, and get their audio, as you");
    expect(html).toContain("Put together your news digest");
    expect(html).not.toContain("Subscribe you to topics");
    expect(html).toContain('value="allow">Allow</button>');
    expect(html).toContain('value="deny">Deny</button>');
    expect(html).toContain("Signed in as show@example.test");
  });

  it("may not be framed, is never cached, and sets only Secure HttpOnly host cookies", async () => {
    const { page, browser } = await onConsentPage("frame@example.test");
    expect(page.headers.get("X-Frame-Options")).toBe("DENY");
    expect(page.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    const cookies = page.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) expect(c).toMatch(/^__Host-[^;]+; .*Secure.*/);
    expect([...browser.cookies.keys()]).toContain("__Host-session");
  });

  it("sends Deny back to the client as error=access_denied with its state (RFC 6749 §4.1.2.1)", async () => {
    const { auth, as, client } = await pendingAuthorization();
    const { location } = await consent(auth, "deny@example.test", "deny");
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe(auth.state);
    expect(() => oauth.validateAuthResponse(as, client, location, auth.state)).toThrow();
  });

  it("refuses an answer without the session's form token, and from another site (CSRF)", async () => {
    const { browser, html } = await onConsentPage("csrf@example.test");
    const handle = hiddenField(html, "handle");
    const forged = await browser.post("/oauth/authorize", { handle, csrf: "0".repeat(64), decision: "allow" });
    expect(forged.status).toBe(403);
    const crossSite = await browser.post("/oauth/authorize", { handle, csrf: hiddenField(html, "csrf"), decision: "allow" }, "https://evil.example");
    expect(crossSite.status).toBe(403);
    // Neither spent the consent: the real form still works.
    const real = await browser.post("/oauth/authorize", { handle, csrf: hiddenField(html, "csrf"), decision: "allow" });
    expect(real.status).toBe(302);
  });

  it("refuses an answer from a browser that is not signed in, and a consent handle used twice", async () => {
    const { browser, html } = await onConsentPage("twice@example.test");
    const fields = { handle: hiddenField(html, "handle"), csrf: hiddenField(html, "csrf"), decision: "allow" };
    const stranger = new Browser();
    expect((await stranger.post("/oauth/authorize", fields)).status).toBe(401);
    expect((await browser.post("/oauth/authorize", fields)).status).toBe(302);
    const again = await browser.post("/oauth/authorize", fields);
    expect(again.status).toBe(400);
    expect(again.headers.get("Location")).toBeNull();
  });

  it("spends a sign-in link once, and never redirects off-site after sign-in", async () => {
    await subscribeVia("link@example.test");
    const browser = new Browser();
    await browser.post("/sign-in", { email: "link@example.test", next: "//evil.example/x" });
    const [mail] = await waitForOutbox(1);
    expect(await env.DB.prepare("select count(*) as n from magic_tokens").first<number>("n")).toBe(1);
    const done = await browser.post("/sign-in/confirm", { magic: magicOf(mail), next: "//evil.example/x" });
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe("/");
    expect((await browser.post("/sign-in/confirm", { magic: magicOf(mail), next: "/" })).status).toBe(410);
    expect((await readOutbox()).length).toBe(1);
  });

  it("answers the sign-in form the same whether or not the address has a subscription", async () => {
    await subscribeVia("known@example.test");
    const browser = new Browser();
    const unknown = await (await browser.post("/sign-in", { email: "unknown@example.test", next: "/" })).text();
    const known = await (await browser.post("/sign-in", { email: "known@example.test", next: "/" })).text();
    expect(unknown.replace("unknown@", "known@")).toBe(known);
    // The mail goes out after the answer; the unknown address's lookup was queued before it.
    expect((await waitForOutbox(1)).map((m) => m.to)).toEqual(["known@example.test"]);
  });

  it("signs out, which ends the session for the consent page", async () => {
    const { browser, html, auth } = await onConsentPage("out@example.test");
    const session = browser.cookies.get("__Host-session");
    const res = await browser.post("/sign-out", { csrf: hiddenField(html, "csrf"), next: "/" });
    expect(res.status).toBe(303);
    expect(browser.cookies.has("__Host-session")).toBe(false);
    const replay = new Browser();
    replay.cookies.set("__Host-session", session!);
    expect(await (await replay.get(auth.url)).text()).toContain('name="email"');
  });
});
