import { describe, expect, it } from "vitest";
import { magicOf, readOutbox, subscribeVia, waitForOutbox } from "../../test/support/listeners";
import { Browser, hiddenField } from "../../test/support/oauth-agent";
import { call, jsonBody } from "../../test/support/client";
import { testVars } from "../../test/vars";

/** Attacks on the web sign-in (workers/web/sign-in.ts). */

const WEB = new URL(testVars.WEB_URL);

/** `next` values that a browser turns into another site once they sit in a Location header. */
const OFF_SITE = [
  "/%09/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\\evil.example",
  "/%5Cevil.example",
  "//evil.example/x",
  "https://evil.example/",
  "/%0d%0a/evil.example",
  "/.//evil.example",
  "/x/..//evil.example",
  "/././/evil.example/x",
];

describe("sign-in redirect (next)", () => {
  it("keeps a browser on the site when it follows /sign-in?next=/%09/evil.example through sign-in", async () => {
    await subscribeVia("tab@example.test");
    const browser = new Browser();
    const form = await browser.get(`${WEB.origin}/sign-in?next=/%09/evil.example`);
    const next = hiddenField(await form.text(), "next");
    await browser.post("/sign-in", { email: "tab@example.test", next });
    const [mail] = await waitForOutbox(1);
    const link = new URL(/https:\/\/web\.test\/sign-in\/confirm\?\S+/.exec(mail.text)![0]);
    const confirm = await browser.get(link);
    const done = await browser.post("/sign-in/confirm", { magic: magicOf(mail), next: hiddenField(await confirm.text(), "next") });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get("Location")!, WEB).origin).toBe(WEB.origin);
  });

  it.each(OFF_SITE)("keeps a browser on the site after sign-in with next=%j", async (next) => {
    await subscribeVia("redirect@example.test");
    const browser = new Browser();
    // The link an attacker hands out: the sign-in form, carrying `next` in its query.
    const form = await browser.get(`${WEB.origin}/sign-in?next=${encodeURIComponent(next)}`);
    const carried = hiddenField(await form.text(), "next");
    expect(new URL(carried, WEB).origin).toBe(WEB.origin);
    await browser.post("/sign-in", { email: "redirect@example.test", next });
    const [mail] = await waitForOutbox(1);
    const done = await browser.post("/sign-in/confirm", { magic: magicOf(mail), next });
    expect(done.status).toBe(303);
    // Resolved as a browser resolves a Location (WHATWG URL parser: tabs and newlines dropped).
    expect(new URL(done.headers.get("Location")!, WEB).origin).toBe(WEB.origin);
  });

  it.each(OFF_SITE)("keeps the error page's Try again link and the sign-out redirect on the site with next=%j", async (next) => {
    const browser = new Browser();
    await browser.get(`${WEB.origin}/sign-in`);
    const refused = await browser.post("/sign-in", { email: "not an address", next });
    expect(refused.status).toBe(422);
    const again = /<a href="([^"]*)">Try again<\/a>/.exec(await refused.text())![1].replace(/&amp;/g, "&");
    expect(new URL(again, WEB).origin).toBe(WEB.origin);
    const out = await browser.post("/sign-out", { next });
    expect(out.status).toBe(303);
    expect(new URL(out.headers.get("Location")!, WEB).origin).toBe(WEB.origin);
  });

  it("keeps a path on the site, with its query", async () => {
    const res = await call(`${WEB.origin}/sign-in?next=${encodeURIComponent("/oauth/authorize?client_id=a&state=b")}`);
    expect(hiddenField(await res.text(), "next")).toBe("/oauth/authorize?client_id=a&state=b");
  });
});

/** A browser that asked for a sign-in link for `email`, and the mailed link. */
async function askForLink(email: string, browser = new Browser()) {
  const before = (await readOutbox()).length;
  expect((await browser.post("/sign-in", { email, next: "/listen" })).status).toBe(200);
  const [mail] = await waitForOutbox(before + 1);
  expect(mail.to).toBe(email);
  return { browser, link: new URL(/https:\/\/web\.test\/sign-in\/confirm\?\S+/.exec(mail.text)![0]), magic: magicOf(mail) };
}

describe("a sign-in link is bound to the browser that asked for it", () => {
  it("signs in no other browser that presses it, and still works where it was asked for", async () => {
    await subscribeVia("owner@example.test");
    const owner = await askForLink("owner@example.test");
    const thief = new Browser();
    const page = await thief.get(owner.link);
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).not.toContain(owner.magic);
    expect(html).toContain('href="/sign-in?next=%2Flisten"');
    const pressed = await thief.post("/sign-in/confirm", { magic: owner.magic, next: "/listen" });
    expect(pressed.status).toBe(403);
    expect(thief.cookies.has("__Host-session")).toBe(false);
    // A browser that asked for a link of its own holds a binding, but not this link's.
    await subscribeVia("thief@example.test");
    await askForLink("thief@example.test", thief);
    expect((await thief.post("/sign-in/confirm", { magic: owner.magic, next: "/listen" })).status).toBe(404);
    expect(thief.cookies.has("__Host-session")).toBe(false);

    const done = await owner.browser.post("/sign-in/confirm", { magic: owner.magic, next: "/listen" });
    expect(done.status).toBe(303);
    expect(owner.browser.cookies.has("__Host-session")).toBe(true);
  });

  it("does not sign a victim's browser into the attacker's account with the attacker's link (login CSRF)", async () => {
    await subscribeVia("attacker@example.test");
    const attacker = await askForLink("attacker@example.test");
    const victim = new Browser();
    expect((await victim.get(attacker.link)).status).toBe(403);
    expect((await victim.post("/sign-in/confirm", { magic: attacker.magic, next: "/listen" })).status).toBe(403);
    expect(victim.cookies.has("__Host-session")).toBe(false);
  });

  it("is refused by the API exchange: the secret alone is not the credential", async () => {
    await subscribeVia("api@example.test");
    const { magic } = await askForLink("api@example.test");
    const res = await call("/v1/auth/listener-magic-link/exchange", jsonBody("POST", { magic }));
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/"token"/);
  });

  it("lets a reader on another device ask again there and sign in", async () => {
    await subscribeVia("phone@example.test");
    const laptop = await askForLink("phone@example.test");
    const phone = new Browser();
    expect((await phone.get(laptop.link)).status).toBe(403);
    const again = await askForLink("phone@example.test", phone);
    expect((await phone.get(again.link)).status).toBe(200);
    expect((await phone.post("/sign-in/confirm", { magic: again.magic, next: "/listen" })).status).toBe(303);
    expect(phone.cookies.has("__Host-session")).toBe(true);
  });
});

describe("the sign-in page's shell (workers/web/page.ts, shared with the consent page)", () => {
  it("wears the site header and a main landmark, with the site's style sheets from this origin and no inline style", async () => {
    const res = await new Browser().get(`${WEB.origin}/sign-in?next=/listen`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(
      /<body><header class="site-header"><a class="brand" href="\/">Narration<\/a>[\s\S]*<\/header><main><h1>Sign in<\/h1>[\s\S]*<\/main><\/body>/,
    );
    const sheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
    expect(sheets).toHaveLength(2);
    for (const sheet of sheets) expect((await call(sheet)).headers.get("content-type")).toContain("text/css");
    expect(html).not.toMatch(/<style|style="/);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
