import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { mailIntakeConfirmation } from "../intake-address";
import { savePreferences, type PreferenceChanges } from "../save-preferences";
import { ListenerPreferencesView, preferencesView } from "../preferences";
import { Email, TimeZone, TOKEN_NOT_FOUND, TokenParams, VerticalList, VerticalSlug } from "../../kernel/fields";

const ListenerPreferences = named(
  "ListenerPreferences",
  v.strictObject({
    verticals: v.optional(VerticalList),
    preferred_vertical: v.optional(v.nullable(VerticalSlug)),
    timezone: v.optional(TimeZone),
    wallet_address: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")))),
    intake_listener_email: v.optional(v.nullable(Email)),
    active: v.pipe(v.optional(v.boolean()), v.description("False stops the daily digest.")),
  }),
);

export const patchPreferences = route({
  method: "PATCH",
  path: "/v1/listeners/:token",
  tag: "listeners",
  summary: "Change a listener's preferences; only the fields present change",
  description:
    "A new intake_listener_email is unconfirmed: a single-use link is mailed to it, and mail from that address " +
    "becomes the listener's article only once the link is opened (intake_listener_email_confirmed).",
  auth: "listener_token",
  params: TokenParams,
  body: ListenerPreferences,
  responses: {
    200: { description: "The preferences after the change", schema: ListenerPreferencesView },
    404: TOKEN_NOT_FOUND,
    409: { description: "The intake e-mail belongs to another listener" },
  },
  async handle({ listener, env, ctx, body }) {
    const set: PreferenceChanges = {};
    if (body.verticals !== undefined) set.verticals = body.verticals;
    if (body.preferred_vertical !== undefined) set.preferredVertical = body.preferred_vertical;
    if (body.timezone !== undefined) set.timezone = body.timezone;
    if (body.wallet_address !== undefined) set.walletAddress = body.wallet_address;
    if (body.intake_listener_email !== undefined) set.intakeListenerEmail = body.intake_listener_email;
    if (body.active !== undefined) set.active = body.active;
    const updated = await savePreferences(env, listener, set);
    if (body.intake_listener_email) ctx.waitUntil(mailIntakeConfirmation(env, updated));
    return Response.json(preferencesView(updated), { headers: { "Cache-Control": "no-store" } });
  },
});
