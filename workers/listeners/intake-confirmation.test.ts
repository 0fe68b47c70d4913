import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { callWith } from "../../test/support/narration";
import { readOutbox, subscribeVia, waitForOutbox, type OutboxMail } from "../../test/support/listeners";
import { Browser, hiddenField } from "../../test/support/oauth-agent";
import { testVars } from "../../test/vars";
import { database } from "../db";
import { receiveEmail, type InboundEmail } from "../articles/email-intake";
import attachmentForward from "../articles/fixtures/forwarded-attachment.eml?raw";

/**
 * intake_listener_email (listeners/intake-address.ts): mail from an address becomes a listener's
 * article only once that mailbox confirmed the link mailed to it.
 */

const VICTIM = "ana@example.org";
const DAY_MS = 24 * 60 * 60 * 1000;

function mailFrom(from: string): InboundEmail {
  const bytes = new TextEncoder().encode(attachmentForward);
  return { from, to: "intake@narration.example", raw: new Response(bytes).body!, setReject: vi.fn() };
}

function setIntake(token: string, address: string | null) {
  return call(`/v1/listeners/${token}`, jsonBody("PATCH", { intake_listener_email: address }));
}

async function preferences(token: string) {
  return (await call(`/v1/listeners/${token}`)).json<{ intake_listener_email: string | null; intake_listener_email_confirmed: boolean }>();
}

function confirmationLink(mail: OutboxMail): URL {
  return new URL(new RegExp(`${testVars.WEB_URL}/intake/confirm\\?\\S+`).exec(mail.text)![0]);
}

async function confirm(link: URL): Promise<Response> {
  const browser = new Browser();
  const page = await browser.get(link);
  expect(page.status).toBe(200);
  return browser.post("/intake/confirm", { magic: hiddenField(await page.text(), "magic") });
}

describe("an intake address someone else owns", () => {
  it("lapses an unconfirmed claim once its link has expired, so the mailbox's owner can name the address (issue 40 item 10)", async () => {
    const squatter = await subscribeVia("squatter@example.test");
    expect((await setIntake(squatter.token, VICTIM)).status).toBe(200);
    await waitForOutbox(1);
    const owner = await subscribeVia("ana-account@example.test");
    // While the claimant's link may still be opened, the claim holds.
    expect((await setIntake(owner.token, VICTIM)).status).toBe(409);
    // A day passes, far beyond the link's lifetime, and nobody opened it.
    await env.DB.prepare("update listeners set intake_email_claimed_at = intake_email_claimed_at - ? where intake_listener_email = ?")
      .bind(DAY_MS, VICTIM)
      .run();
    await env.DB.prepare("update magic_tokens set expires_at = expires_at - ? where scope = 'intake'").bind(DAY_MS).run();
    expect((await setIntake(owner.token, VICTIM)).status).toBe(200);
    expect(await preferences(squatter.token)).toMatchObject({ intake_listener_email: null });
    const [mail] = await waitForOutbox(2);
    expect(mail.to).toBe(VICTIM);
    expect((await confirm(confirmationLink(mail))).status).toBe(200);
    expect(await preferences(owner.token)).toMatchObject({ intake_listener_email: VICTIM, intake_listener_email_confirmed: true });
  });

  it("never lapses a confirmed claim", async () => {
    const holder = await subscribeVia("holder@example.test");
    expect((await setIntake(holder.token, VICTIM)).status).toBe(200);
    expect((await confirm(confirmationLink((await waitForOutbox(1))[0]))).status).toBe(200);
    await env.DB.prepare("update listeners set intake_email_claimed_at = 1 where intake_listener_email = ?").bind(VICTIM).run();
    const other = await subscribeVia("other@example.test");
    expect((await setIntake(other.token, VICTIM)).status).toBe(409);
    expect(await preferences(holder.token)).toMatchObject({ intake_listener_email: VICTIM, intake_listener_email_confirmed: true });
  });

  it("keeps nothing the owner sends while the address is unconfirmed, and mails the owner instead of the claimant", async () => {
    const attacker = await subscribeVia("attacker@example.test");
    expect((await setIntake(attacker.token, VICTIM)).status).toBe(200);
    expect(await preferences(attacker.token)).toMatchObject({ intake_listener_email: VICTIM, intake_listener_email_confirmed: false });

    const outcome = await receiveEmail(mailFrom(VICTIM), env);
    expect(outcome.status).toBe("rejected");
    expect(await database(env).query.articles.findMany()).toEqual([]);
    const [mail] = await waitForOutbox(1);
    expect(mail.to).toBe(VICTIM);
    expect(mail.text).toContain("attacker@example.test");
  });

  it("is not confirmed by fetching the mailed link (mail scanners), only by its button", async () => {
    const attacker = await subscribeVia("scanned@example.test");
    await setIntake(attacker.token, VICTIM);
    const [mail] = await waitForOutbox(1);
    expect((await call(confirmationLink(mail).href)).status).toBe(200);
    expect((await preferences(attacker.token)).intake_listener_email_confirmed).toBe(false);
    expect((await receiveEmail(mailFrom(VICTIM), env)).status).toBe("rejected");
  });

  it("sends at most one pending link per address, however often it is named", async () => {
    const one = await subscribeVia("one@example.test");
    const two = await subscribeVia("two@example.test");
    // The link is mailed after the response: callWith returns once that is done, so every mail that
    // was to be sent is in the outbox when it is read.
    const setIntakeAndMail = (token: string, address: string | null) =>
      callWith(null, `/v1/listeners/${token}`, jsonBody("PATCH", { intake_listener_email: address }));
    for (let i = 0; i < 3; i++) {
      await setIntakeAndMail(one.token, VICTIM);
      await setIntakeAndMail(one.token, null);
      await setIntakeAndMail(two.token, VICTIM);
      await setIntakeAndMail(two.token, null);
    }
    expect((await readOutbox()).filter((m) => m.to === VICTIM)).toHaveLength(1);
  });
});

describe("an intake address its owner confirmed", () => {
  it("keeps the owner's mail once the link is confirmed, and no longer after the address changes", async () => {
    const owner = await subscribeVia(VICTIM);
    await setIntake(owner.token, VICTIM);
    const [mail] = await waitForOutbox(1);
    const done = await confirm(confirmationLink(mail));
    expect(done.status).toBe(200);
    expect(await preferences(owner.token)).toMatchObject({ intake_listener_email: VICTIM, intake_listener_email_confirmed: true });
    expect((await receiveEmail(mailFrom(VICTIM), env)).status).toBe("added");

    expect((await confirm(confirmationLink(mail))).status).toBe(410);
    await setIntake(owner.token, "other@example.org");
    await setIntake(owner.token, VICTIM);
    expect((await preferences(owner.token)).intake_listener_email_confirmed).toBe(false);
    expect((await receiveEmail(mailFrom(VICTIM), env)).status).toBe("rejected");
  });
});
