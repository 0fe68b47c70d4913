import { inArray } from "drizzle-orm";
import PostalMime, { type Email } from "postal-mime";
import { database, listeners } from "../db";
import { ValidationError } from "../core/errors";
import type { Listener } from "../kernel/listener-tokens";
import { FORWARDED_VERTICAL, firstUrl, forwardArticle, publisherOf, type Forwarded } from "./forward";
import { addLink } from "./links";

/** The part of an inbound message the intake needs (ForwardableEmailMessage satisfies it). */
export interface InboundEmail {
  readonly from: string;
  readonly to: string;
  readonly raw: ReadableStream<Uint8Array> | ArrayBuffer | string;
  setReject(reason: string): void;
}

export type IntakeOutcome = { status: "added" | "duplicate"; slug: string } | { status: "rejected"; reason: string };

/**
 * The line a mail client puts above an inline-forwarded message (Gmail, Apple Mail, Outlook,
 * Thunderbird), matched against one trimmed line at a time. No two quantifiers in it can match the
 * same characters, so a line is scanned in linear time: the former whole-text pattern let two `\s*`
 * share a run of spaces, and 80 KB of them took 13 s of CPU.
 */
const FORWARD_BANNER = /^-{2,}\s*(?:forwarded message|original message|begin forwarded message)\s*-*:?$/i;
const BANNER_HEADER = /^(from|date|sent|subject|to|cc|reply-to):\s.*$/i;

function stripSubjectPrefix(subject: string): string {
  return subject.replace(/^\s*((fwd?|fw|tr|wg)\s*:\s*)+/i, "").trim();
}

/**
 * The forwarded article in an inline forward: the text below the banner, without the quoted
 * header block; the original Subject: line, when present, is the better title.
 */
function splitInlineForward(text: string): { subject: string | null; original: string } | null {
  const all = text.split(/\r?\n/);
  const banner = all.findIndex((line) => FORWARD_BANNER.test(line.trim()));
  if (banner < 0) return null;
  const lines = all.slice(banner + 1);
  let subject: string | null = null;
  let i = 0;
  while (i < lines.length && (BANNER_HEADER.test(lines[i]) || (lines[i].trim() === "" && i === 0))) {
    const m = /^subject:\s*(.*)$/i.exec(lines[i]);
    if (m) subject = m[1].trim();
    i += 1;
  }
  return { subject, original: lines.slice(i).join("\n").trim() };
}

const mailboxName = (e: Email) => (e.from && "address" in e.from && e.from.address ? e.from.name || e.from.address : null);

/**
 * What a forwarded message carries: a message/rfc822 attachment ("forward as attachment") wins,
 * then an inline forward below its banner, then the message itself. A message with article text is
 * stored as it describes it; only a message that is just a link has its page fetched (receiveEmail).
 */
async function forwardedContent(raw: InboundEmail["raw"]): Promise<Omit<Forwarded, "vertical">> {
  const outer = await PostalMime.parse(raw, { forceRfc822Attachments: true });
  const attached = outer.attachments.find((a) => a.mimeType === "message/rfc822");
  if (attached) {
    const inner = await PostalMime.parse(attached.content as ArrayBuffer | string);
    const text = (inner.text ?? "").trim();
    const url = firstUrl(text);
    return { title: inner.subject?.trim() ?? "", text, url, publisher: publisherOf(url, mailboxName(inner) ?? "forwarded") };
  }
  const body = outer.text ?? "";
  const inline = splitInlineForward(body);
  const text = (inline?.original ?? body).trim();
  const url = firstUrl(text);
  return {
    title: inline?.subject ?? stripSubjectPrefix(outer.subject ?? ""),
    text,
    url,
    publisher: publisherOf(url, "forwarded"),
  };
}

/**
 * The Worker's e-mail handler: a listener forwards an article to the intake address. The
 * listener is the one whose intake_listener_email is the recipient (a per-listener intake
 * address: mail reaches this handler only at the service's own domain, so whoever sends there
 * means that listener) or, failing that, the envelope sender (the listener's own mailbox; Email
 * Routing has already checked SPF/DMARC for it), provided that mailbox confirmed it belongs to the
 * listener (listeners/intake-address.ts): anyone can name someone else's address. Unknown addresses
 * are rejected back to the sender. A message that is just a link adds the linked page (articles/links.ts).
 */
export async function receiveEmail(message: InboundEmail, env: Pick<Env, "DB" | "RENDER_QUEUE"> & object): Promise<IntakeOutcome> {
  const db = database(env);
  const to = message.to.toLowerCase();
  const from = message.from.toLowerCase();
  // Stored lower-cased (the Email schema of PATCH /v1/listeners/{token}), so the unique index answers.
  const candidates = await db.query.listeners.findMany({ where: inArray(listeners.intakeListenerEmail, [to, from]) });
  const listener =
    candidates.find((l) => l.intakeListenerEmail === to) ?? candidates.find((l) => l.intakeListenerEmail === from && l.intakeEmailConfirmedAt !== null);
  if (!listener) {
    const reason = "no listener uses this intake address";
    message.setReject(reason);
    return { status: "rejected", reason };
  }
  const content = await forwardedContent(message.raw);
  if (!content.text && !content.url) {
    const reason = "the message carries no article text or link";
    message.setReject(reason);
    return { status: "rejected", reason };
  }
  if (content.url && isJustALink(content.text, content.url)) return intakeLink(message, env, listener, new URL(content.url));
  const { article, created } = await forwardArticle(db, listener, { ...content, vertical: FORWARDED_VERTICAL });
  return { status: created ? "added" : "duplicate", slug: article.slug };
}

/** A message whose text is its link and little else ("Sent from my phone" aside): the page is what it means. */
function isJustALink(text: string, url: string): boolean {
  return text.replace(url, "").trim().length < 80;
}

/** A mailed link is added as POST /v1/listeners/{token}/links adds one; a page that cannot be used is bounced with the reason. */
async function intakeLink(message: InboundEmail, env: Pick<Env, "DB" | "RENDER_QUEUE"> & object, listener: Listener, url: URL): Promise<IntakeOutcome> {
  try {
    const { article, created } = await addLink(env, undefined, null, listener, url);
    return { status: created ? "added" : "duplicate", slug: article.slug };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const reason = `the linked page cannot be added: ${err.issues[0].msg}`;
    message.setReject(reason);
    return { status: "rejected", reason };
  }
}
