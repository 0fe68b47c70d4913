import type { MailMessage, Mailer, SendResult } from "./message";

/** The Resend e-mail API (https://resend.com/docs/api-reference/emails/send-email). */
export const RESEND_ENDPOINT = "https://api.resend.com/emails";

/** A Mailer that sends through Resend with `apiKey`. */
export function resendMailer(apiKey: string, from: string): Mailer {
  return {
    kind: "resend",
    async send(message: MailMessage): Promise<SendResult> {
      let res: Response;
      try {
        res = await fetch(RESEND_ENDPOINT, {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            from,
            to: [message.to],
            subject: message.subject,
            text: message.text,
            html: message.html,
            ...(message.headers && { headers: message.headers }),
          }),
        });
      } catch {
        return { ok: false, reason: "network_error" };
      }
      if (!res.ok) {
        // 4xx: Resend refused this message (bad address, unverified domain); 5xx: their outage.
        return { ok: false, reason: res.status < 500 ? "rejected" : "upstream_error" };
      }
      const body = (await res.json().catch(() => ({}))) as { id?: unknown };
      return { ok: true, id: typeof body.id === "string" ? body.id : "" };
    },
  };
}
