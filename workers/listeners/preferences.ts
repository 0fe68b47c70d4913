import * as v from "valibot";
import { named } from "../core/schema-registry";
import type { Listener } from "../kernel/listener-tokens";

/** The preferences view of a listener, returned by GET and PATCH /v1/listeners/{listener_token}. */
export const ListenerPreferencesView = named(
  "ListenerPreferencesView",
  v.object({
    email: v.string(),
    verticals: v.array(v.string()),
    preferred_vertical: v.pipe(v.nullable(v.string()), v.description("The pinned vertical, or null.")),
    timezone: v.string(),
    wallet_address: v.nullable(v.string()),
    intake_listener_email: v.pipe(v.nullable(v.string()), v.description("Forwarded articles from this address become the listener's, once confirmed.")),
    intake_listener_email_confirmed: v.pipe(
      v.boolean(),
      v.description("True once the intake address's mailbox opened the confirmation link mailed to it; until then its mail is kept by nobody."),
    ),
    active: v.pipe(v.boolean(), v.description("False stops the daily digest.")),
    first_render_done_at: v.nullable(v.string()),
    created_at: v.string(),
  }),
);

export function preferencesView(l: Listener): v.InferOutput<typeof ListenerPreferencesView> {
  return {
    email: l.email,
    verticals: l.verticals,
    preferred_vertical: l.preferredVertical,
    timezone: l.timezone,
    wallet_address: l.walletAddress,
    intake_listener_email: l.intakeListenerEmail,
    intake_listener_email_confirmed: l.intakeEmailConfirmedAt !== null,
    active: l.active,
    first_render_done_at: l.firstRenderDoneAt?.toISOString() ?? null,
    created_at: l.createdAt.toISOString(),
  };
}
