import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { listingItem, ListingItemEntries, newestOf } from "../listener-articles";
import { limitQuery, TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

const ListenerQueue = named(
  "ListenerQueue",
  v.object({
    items: v.array(
      v.object({
        ...ListingItemEntries,
        status: v.pipe(v.picklist(["pending", "rendering", "failed", "done"]), v.description("Render status of the article's audio.")),
      }),
    ),
    counts: v.pipe(v.record(v.string(), v.number()), v.description("Items per status.")),
  }),
);

export const getQueue = route({
  method: "GET",
  path: "/v1/listeners/:token/queue",
  tag: "listeners",
  summary: "Recent articles of the listener's verticals with their render status",
  auth: "listener_token",
  rateLimit: "read",
  params: TokenParams,
  query: limitQuery(30),
  responses: {
    200: { description: "The queue, newest first", schema: ListenerQueue },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env, query }) {
    const rows = await newestOf(env, listener, query.limit);
    const counts: Record<string, number> = { pending: 0, rendering: 0, failed: 0, done: 0 };
    const items = rows.map((a) => {
      counts[a.status] += 1;
      return { ...listingItem(env, a), status: a.status };
    });
    return Response.json({ items, counts }, { headers: { "Cache-Control": "no-store" } });
  },
});
