import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

/** docs/rules.md "Rules" 8: the click-through duplicate window. */
const CLICK_THROUGH_WINDOW_MS = 30_000;

const PaywallClickThroughRequest = named(
  "PaywallClickThroughRequest",
  v.object({
    publisher: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description("The partner publisher whose paywall was clicked through.")),
  }),
);

const PaywallClickThroughResponse = named(
  "PaywallClickThroughResponse",
  v.object({
    entry_id: v.pipe(v.number(), v.description("The zero-amount ledger entry that records the click-through.")),
    duplicate: v.pipe(v.boolean(), v.description("True when a click within 30 s already wrote this entry.")),
  }),
);

export const paywallClickThrough = route({
  method: "POST",
  path: "/v1/listeners/:token/clickthrough/partner-paywall",
  tag: "listeners",
  summary: "Record a partner-paywall click-through; repeats within 30 s return the previous entry",
  auth: "listener_token",
  params: TokenParams,
  body: PaywallClickThroughRequest,
  responses: {
    200: { description: "The ledger entry", schema: PaywallClickThroughResponse },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env, body }) {
    // One DedupeWindow per (listener, publisher): its calls are serialised, so concurrent clicks write one row.
    const stub = env.DEDUPE_WINDOW.getByName(`paywall:${listener.id}:${body.publisher}`);
    const result = await stub.clickThrough({ listenerId: listener.id, publisher: body.publisher }, CLICK_THROUGH_WINDOW_MS);
    return Response.json({ entry_id: result.entryId, duplicate: result.duplicate });
  },
});
