import { eq } from "drizzle-orm";
import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database, listeners } from "../../db/index";
import { acceptMagicLinkRequest, MagicLinkAccepted, mailMagicLink } from "../../kernel/magic-links";
import { Email } from "../../kernel/fields";

const MagicLinkRequest = named("MagicLinkRequest", v.object({ email: Email }));

async function sendListenerLink(env: Env, email: string): Promise<void> {
  const listener = await database(env).query.listeners.findFirst({ where: eq(listeners.email, email) });
  if (listener) await mailMagicLink(env, "listener", email, listener.id);
}

export const requestListenerMagicLink = route({
  method: "POST",
  path: "/v1/auth/listener-magic-link",
  tag: "auth",
  summary: "Mail a sign-in link; the answer is the same whether or not the e-mail is subscribed",
  auth: "none",
  rateLimit: "read",
  body: MagicLinkRequest,
  responses: { 200: { description: "Accepted", schema: MagicLinkAccepted } },
  handle: ({ env, ctx, body }) => acceptMagicLinkRequest(ctx, sendListenerLink(env, body.email)),
});
