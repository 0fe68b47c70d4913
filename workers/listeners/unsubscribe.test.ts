import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { addArticle } from "../../test/support/articles";
import { sendDailyDigest } from "./digest";
import { feedTokenOf, readOutbox, subscribeVia, type OutboxMail } from "../../test/support/listeners";

/** RFC 8058 section 3.1: the body a mailbox provider POSTs to the List-Unsubscribe URI. */
const ONE_CLICK = "List-Unsubscribe=One-Click";
const oneClick = (url: string) => call(url, { method: "POST", body: ONE_CLICK, headers: { "content-type": "application/x-www-form-urlencoded" } });

async function active(email: string): Promise<boolean> {
  return (await env.DB.prepare("select active from listeners where email = ?").bind(email).first<{ active: number }>())!.active === 1;
}

/** Subscribes `emails` to tech, runs the digest and returns each listener's digest mail. */
async function digests(...emails: string[]) {
  const subs = await Promise.all(emails.map((email) => subscribeVia(email, ["tech"])));
  await addArticle({ vertical: "tech", title: "News" });
  await sendDailyDigest(env);
  const mails = await readOutbox();
  return subs.map((sub) => ({ sub, mail: mails.find((m) => m.to === sub.email)! }));
}

/** The one URI of the List-Unsubscribe header, `<https://...>` (RFC 2369 section 3.2). */
function unsubscribeUrl(mail: OutboxMail): string {
  const match = /^<([^>]+)>$/.exec(mail.headers["List-Unsubscribe"] ?? "");
  expect(match, "List-Unsubscribe header").not.toBeNull();
  return match![1];
}

describe("digest one-click unsubscribe (RFC 8058)", () => {
  it("every digest names one URL in List-Unsubscribe with List-Unsubscribe-Post, and shows it in both parts", async () => {
    const [{ sub, mail }] = await digests("one@example.test");
    const url = unsubscribeUrl(mail);
    expect(url.startsWith(`${testVars.BASE_URL}/`)).toBe(true);
    expect(mail.headers["List-Unsubscribe-Post"]).toBe(ONE_CLICK);
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.text).not.toContain("PATCH");
    // The link is a credential of its own: neither the account token nor the feed token.
    expect(url).not.toContain(sub.token);
    expect(url).not.toContain(feedTokenOf(sub.feed_url));
  });

  it("the one-click POST unsubscribes that listener only, with no sign-in", async () => {
    const [ann] = await digests("ann@example.test", "bob@example.test");
    const res = await oneClick(unsubscribeUrl(ann.mail));
    expect(res.status).toBe(200);
    expect(await active("ann@example.test")).toBe(false);
    expect(await active("bob@example.test")).toBe(true);
    // Repeating it is harmless.
    expect((await oneClick(unsubscribeUrl(ann.mail))).status).toBe(200);
  });

  it("the visible link opens a page that asks to confirm; opening it changes nothing", async () => {
    const [{ mail }] = await digests("page@example.test");
    const url = unsubscribeUrl(mail);
    const page = await call(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('method="post"');
    expect(html).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(await active("page@example.test")).toBe(true);
    const confirmed = await oneClick(url);
    expect(await confirmed.text()).toContain("unsubscribed");
    expect(await active("page@example.test")).toBe(false);
  });

  it("a link altered to point at another listener, or with a forged signature, is refused and changes nothing", async () => {
    const [ann, bob] = await digests("a2@example.test", "b2@example.test");
    const annUrl = unsubscribeUrl(ann.mail);
    const bobUrl = unsubscribeUrl(bob.mail);
    const [annId, annSig] = annUrl.slice(annUrl.lastIndexOf("/") + 1).split(".");
    const [bobId] = bobUrl.slice(bobUrl.lastIndexOf("/") + 1).split(".");
    const base = annUrl.slice(0, annUrl.lastIndexOf("/") + 1);
    const flipped = annSig.slice(0, -1) + (annSig.endsWith("A") ? "B" : "A");
    for (const forged of [`${base}${bobId}.${annSig}`, `${base}${annId}.${flipped}`, `${base}${annId}`, `${base}${annId}.`]) {
      expect((await oneClick(forged)).status).toBe(404);
      expect((await call(forged)).status).toBe(404);
    }
    expect(await active("a2@example.test")).toBe(true);
    expect(await active("b2@example.test")).toBe(true);
  });
});
