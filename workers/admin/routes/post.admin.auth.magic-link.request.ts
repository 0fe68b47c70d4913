import * as v from "valibot";
import { config } from "../../core/config";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { acceptMagicLinkRequest, MagicLinkAccepted, mailMagicLink } from "../../listeners/magic-links";
import { Email } from "../../kernel/fields";

const AdminMagicLinkRequest = named("AdminMagicLinkRequest", v.object({ email: Email }));

/** ADMIN_ALLOWLIST as lower-case addresses. */
function allowlist(env: object): Set<string> {
  return new Set(
    config(env)
      .ADMIN_ALLOWLIST.split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );
}

export const requestAdminMagicLink = route({
  method: "POST",
  path: "/v1/admin/auth/magic-link/request",
  tag: "admin-auth",
  summary: "Mail an admin sign-in link to an ADMIN_ALLOWLIST address; the answer is the same for any address",
  auth: "none",
  body: AdminMagicLinkRequest,
  responses: { 200: { description: "Accepted", schema: MagicLinkAccepted } },
  handle: ({ env, ctx, body }) =>
    acceptMagicLinkRequest(ctx, allowlist(env).has(body.email) ? mailMagicLink(env, "admin", body.email, null) : Promise.resolve()),
});
