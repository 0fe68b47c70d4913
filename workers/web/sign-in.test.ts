import { describe, expect, it } from "vitest";
import { magicOf, subscribeVia, waitForOutbox } from "../../test/support/listeners";
import { Browser, hiddenField } from "../../test/support/oauth-agent";
import { call } from "../../test/support/client";
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

  it("keeps a path on the site, with its query", async () => {
    const res = await call(`${WEB.origin}/sign-in?next=${encodeURIComponent("/oauth/authorize?client_id=a&state=b")}`);
    expect(hiddenField(await res.text(), "next")).toBe("/oauth/authorize?client_id=a&state=b");
  });
});
