import { escapeHtml } from "../core/text";

/** One e-mail: every message carries a plain-text and an HTML part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields, e.g. List-Unsubscribe (RFC 8058) on the digest. */
  headers?: Record<string, string>;
}

/** Expected delivery failures are values; the caller decides whether one matters. */
export type SendResult = { ok: true; id: string } | { ok: false; reason: "rejected" | "upstream_error" | "network_error" };

/** A way to deliver mail: the Resend HTTP API in production, the D1 outbox locally. */
export interface Mailer {
  readonly kind: "resend" | "outbox";
  send(message: MailMessage): Promise<SendResult>;
}

/** Wraps body HTML in a minimal document. */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}
