import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { acceptMagicLinkRequest, MagicLinkAccepted, mailListenerSignIn } from "../magic-links";
import { Email } from "../../kernel/fields";

const MagicLinkRequest = named("MagicLinkRequest", v.object({ email: Email }));

export const requestListenerMagicLink = route({
  method: "POST",
  path: "/v1/auth/listener-magic-link",
  tag: "auth",
  summary: "Mail a sign-in link; the answer is the same whether or not the e-mail is subscribed",
  auth: "none",
  rateLimit: "read",
  body: MagicLinkRequest,
  responses: { 200: { description: "Accepted", schema: MagicLinkAccepted } },
  handle: ({ env, ctx, body }) => acceptMagicLinkRequest(ctx, mailListenerSignIn(env, body.email)),
});
