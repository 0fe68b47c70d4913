import * as v from "valibot";
import { config } from "../core/config";
import { route } from "../core/route";
import { named } from "../core/schema-registry";
import { issueMagicToken, magicLinkMessage } from "../listeners/magic-links";
import { MAGIC_LINK_ACCEPTED, MagicLinkAccepted } from "../listeners/magic-link-request";
import { Email } from "../listeners/schemas";
import { mailer } from "../mail/mailer";

const AdminMagicLinkRequest = named("AdminMagicLinkRequest", v.object({ email: Email }));

/** ADMIN_ALLOWLIST as lower-case addresses. */
function allowlist(env: object): Set<string> {
  return new Set(config(env).ADMIN_ALLOWLIST.split(",").map((e) => e.trim().toLowerCase()).filter(Boolean));
}

async function sendAdminLink(env: Env, email: string): Promise<void> {
  const mail = mailer(env);
  if (!mail || !allowlist(env).has(email)) return;
  const secret = await issueMagicToken(env, "admin", email, null);
  const sent = await mail.send(magicLinkMessage(env, "admin", email, secret));
  if (!sent.ok) console.warn(`admin magic link not delivered: ${sent.reason}`);
}

export const requestAdminMagicLink = route({
  method: "POST",
  path: "/v1/admin/auth/magic-link/request",
  tag: "admin-auth",
  summary: "Mail an admin sign-in link to an ADMIN_ALLOWLIST address; the answer is the same for any address",
  auth: "none",
  body: AdminMagicLinkRequest,
  responses: { 200: { description: "Accepted", schema: MagicLinkAccepted } },
  handle({ env, ctx, body }) {
    ctx.waitUntil(sendAdminLink(env, body.email));
    return Response.json(MAGIC_LINK_ACCEPTED);
  },
});
