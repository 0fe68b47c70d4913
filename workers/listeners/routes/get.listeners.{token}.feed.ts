import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { listingItem, ListingItemEntries, newestOf } from "../listener-articles";
import { limitQuery, TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

const ListenerFeed = named(
  "ListenerFeed",
  v.object({
    items: v.array(
      v.object({
        ...ListingItemEntries,
        summary: v.string(),
        listen_seconds: v.nullable(v.number()),
        audio_ready: v.pipe(v.boolean(), v.description("True when the listener can play the narration (audio_url set); never on a publisher_only stub.")),
      }),
    ),
  }),
);

export const getListenerFeed = route({
  method: "GET",
  path: "/v1/listeners/:token/feed",
  tag: "listeners",
  summary: "The listener's articles, newest first by created_at",
  auth: "listener_token",
  rateLimit: "read",
  params: TokenParams,
  query: limitQuery(50),
  responses: {
    200: { description: "The feed", schema: ListenerFeed },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env, query }) {
    const rows = await newestOf(env, listener, query.limit);
    const items = rows.map((a) => ({
      ...listingItem(env, a),
      summary: a.summary,
      listen_seconds: a.listenSeconds,
      audio_ready: a.audioReady,
    }));
    return Response.json({ items }, { headers: { "Cache-Control": "no-store" } });
  },
});
