import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { webUrl } from "../core/config";
import { database, listeners, magicTokens } from "../db/index";
import { nowMs } from "../db/tables/columns";
import type { Listener } from "../kernel/listener-tokens";
import { mailer } from "../mail/mailer";
import { escapeHtml } from "../core/text";
import { htmlDocument, type MailMessage } from "../mail/message";
import { issueMagicToken, MAGIC_LINK_TTL_MS, redeemMagicToken, type RedeemFailure } from "./magic-links";

/**
 * The proof that a listener owns the mailbox of their intake address (SPEC.md part 2
 * intake_listener_email). Mail whose sender is that address becomes the listener's private article
 * (workers/articles/email-intake.ts); taken on the listener's word, anyone could name someone else's
 * address and collect that person's forwards. So the address is confirmed the way a sign-in is: a
 * single-use link mailed to it (a magic-link secret in the `intake` scope, same lifetime), opened by
 * whoever reads that mailbox. Until then, mail from it is attributed to nobody.
 */

/** Where the mailed link lands: a page with a button, so mail scanners that fetch links confirm nothing. */
export const INTAKE_CONFIRM_PATH = "/intake/confirm";

function confirmationMessage(to: string, account: string, link: string): MailMessage {
  const minutes = MAGIC_LINK_TTL_MS / 60_000;
  const text = [
    `The narration subscription of ${account} asks to receive the articles you forward from ${to}.`,
    "",
    `Confirm that this mailbox is yours: ${link}`,
    "",
    `The link works once and expires in ${minutes} minutes. If you did not ask for this, ignore this message: nothing you send is kept.`,
  ].join("\n");
  const html = htmlDocument(
    "Confirm your intake address",
    `<p>The narration subscription of <strong>${escapeHtml(account)}</strong> asks to receive the articles you forward from <strong>${escapeHtml(to)}</strong>.</p>` +
      `<p><a href="${escapeHtml(link)}">Confirm that this mailbox is yours</a></p>` +
      `<p>The link works once and expires in ${minutes} minutes. If you did not ask for this, ignore this message: nothing you send is kept.</p>`,
  );
  return { to, subject: "Confirm your intake address", text, html };
}

/** True while a confirmation link mailed to `address` is unused and unexpired. */
async function confirmationPending(env: Pick<Env, "DB">, address: string): Promise<boolean> {
  const pending = await database(env).query.magicTokens.findFirst({
    columns: { id: true },
    where: and(eq(magicTokens.scope, "intake"), eq(magicTokens.email, address), isNull(magicTokens.usedAt), gt(magicTokens.expiresAt, new Date())),
  });
  return pending !== undefined;
}

/**
 * Mails the confirmation link of `listener`'s intake address, when it is unconfirmed and mail is
 * configured. At most one link is pending per address, so naming someone's address again and again,
 * from one account or many, cannot flood their mailbox.
 */
export async function mailIntakeConfirmation(env: Env, listener: Listener): Promise<void> {
  const address = listener.intakeListenerEmail;
  const mail = mailer(env);
  if (!address || listener.intakeEmailConfirmedAt || !mail || (await confirmationPending(env, address))) return;
  const secret = await issueMagicToken(env, "intake", address, listener.id);
  const link = `${webUrl(env)}${INTAKE_CONFIRM_PATH}?${new URLSearchParams({ magic: secret })}`;
  const sent = await mail.send(confirmationMessage(address, listener.email, link));
  if (!sent.ok) console.warn(`intake confirmation not delivered: ${sent.reason}`);
}

/**
 * Releases another listener's claim on `address` when it has lapsed: never confirmed, and named longer
 * ago than a confirmation link lives (a claim from before claims were dated counts as lapsed). Without
 * this, naming someone's address and never confirming it would keep its owner out for ever. A
 * confirmed claim is never released here: its mailbox said it belongs to that listener. True when one was.
 */
export async function releaseLapsedClaim(env: Pick<Env, "DB">, address: string): Promise<boolean> {
  const released = await database(env)
    .update(listeners)
    .set({ intakeListenerEmail: null, intakeEmailClaimedAt: null, updatedAt: nowMs })
    .where(
      and(
        eq(listeners.intakeListenerEmail, address),
        isNull(listeners.intakeEmailConfirmedAt),
        or(isNull(listeners.intakeEmailClaimedAt), sql`${listeners.intakeEmailClaimedAt} <= ${nowMs} - ${MAGIC_LINK_TTL_MS}`),
      ),
    )
    .returning({ id: listeners.id });
  return released.length > 0;
}

/**
 * Spends a confirmation secret and marks the address confirmed, provided the listener still has the
 * address the link was mailed to (a later change of address voids earlier links).
 */
export async function confirmIntakeAddress(
  env: Pick<Env, "DB">,
  secret: string,
): Promise<{ ok: true; address: string } | { ok: false; reason: RedeemFailure }> {
  const redeemed = await redeemMagicToken(env, secret, "intake");
  if (!redeemed.ok) return redeemed;
  if (redeemed.listenerId === null) return { ok: false, reason: "unknown" };
  const confirmed = await database(env)
    .update(listeners)
    .set({ intakeEmailConfirmedAt: nowMs })
    .where(and(eq(listeners.id, redeemed.listenerId), eq(listeners.intakeListenerEmail, redeemed.email)))
    .returning({ id: listeners.id });
  return confirmed.length > 0 ? { ok: true, address: redeemed.email } : { ok: false, reason: "expired" };
}
