import type { Mailer } from "./message";
import { outboxMailer } from "./outbox";
import { resendMailer } from "./resend";

type MailEnv = Pick<Env, "DB"> & Partial<Pick<Env, "MAIL_OUTBOX" | "MAIL_FROM" | "RESEND_API_KEY">>;

const DEFAULT_FROM = "Narration <no-reply@narration.local>";

/** True when the developer outbox is on (MAIL_OUTBOX=true): mail is stored, never sent. */
export function outboxEnabled(env: MailEnv): boolean {
  return env.MAIL_OUTBOX === "true";
}

/**
 * The configured way to deliver mail, or null when mail is unconfigured (SPEC.md part 4: mail goes
 * out only when the provider is configured). The outbox wins so a developer's machine never sends.
 */
export function mailer(env: MailEnv): Mailer | null {
  if (outboxEnabled(env)) return outboxMailer(env);
  if (env.RESEND_API_KEY) return resendMailer(env.RESEND_API_KEY, env.MAIL_FROM || DEFAULT_FROM);
  return null;
}
