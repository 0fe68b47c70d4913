import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { subscribe } from "../../kernel/listener-account";
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
    already_subscribed: v.pipe(v.boolean(), v.description("True when the e-mail was subscribed before; the token is the same.")),
  }),
);

export const subscribeListener = route({
  method: "POST",
  path: "/v1/listeners/subscribe",
  tag: "listeners",
  summary: "Subscribe an e-mail to verticals; idempotent on the e-mail (same token, verticals replaced)",
  auth: "none",
  rateLimit: "read",
  body: ListenerSubscribeRequest,
  responses: {
    201: { description: "The subscription's token and private feed URL", schema: ListenerSubscribeResponse },
  },
  async handle({ env, body }) {
    const result = await subscribe(env, body.email, body.verticals);
    const out: v.InferOutput<typeof ListenerSubscribeResponse> = {
      token: result.token,
      feed_url: result.feedUrl,
      email: result.listener.email,
      verticals: result.listener.verticals,
      already_subscribed: !result.created,
    };
    return Response.json(out, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
