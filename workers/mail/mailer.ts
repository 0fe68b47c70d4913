import { config } from "../core/config";
import { isLocalOrigin } from "../core/local-origin";
import type { Mailer } from "./message";
import { outboxMailer } from "./outbox";
import { resendMailer } from "./resend";

type MailEnv = Pick<Env, "DB"> & object;

/**
 * True when the developer outbox is on: MAIL_OUTBOX=true on this machine (BASE_URL local, as the local
 * x402 facilitator demands). Mail is then stored, never sent, and GET /v1/dev/outbox shows it to anyone;
 * left on in a deployment it would show every sign-in link to the public, so there it is off.
 */
export function outboxEnabled(env: MailEnv): boolean {
  const { MAIL_OUTBOX, BASE_URL } = config(env);
  return MAIL_OUTBOX && isLocalOrigin(BASE_URL);
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
