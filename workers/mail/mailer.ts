import { config } from "../core/config";
import type { Mailer } from "./message";
import { outboxMailer } from "./outbox";
import { resendMailer } from "./resend";

type MailEnv = Pick<Env, "DB"> & object;

/** True when the developer outbox is on (MAIL_OUTBOX=true): mail is stored, never sent. */
export function outboxEnabled(env: MailEnv): boolean {
  return config(env).MAIL_OUTBOX;
}

/**
 * The configured way to deliver mail, or null when mail is unconfigured (docs/rules.md "Rules" 4: mail goes
 * out only when the provider is configured). The outbox wins so a developer's machine never sends.
 */
export function mailer(env: MailEnv): Mailer | null {
  if (outboxEnabled(env)) return outboxMailer(env);
  const { RESEND_API_KEY, MAIL_FROM } = config(env);
  if (RESEND_API_KEY) return resendMailer(RESEND_API_KEY, MAIL_FROM);
  return null;
}
