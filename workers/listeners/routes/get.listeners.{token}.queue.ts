import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { newestForToken, resolvedAudioUrl } from "../../kernel/listener-articles";
import { limitQuery, TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

const ListenerQueue = named(
  "ListenerQueue",
  v.object({
    items: v.array(
      v.object({
        slug: v.string(),
        title: v.string(),
        publisher: v.string(),
        vertical: v.string(),
        status: v.pipe(v.picklist(["pending", "rendering", "failed", "done"]), v.description("Render status of the article's audio.")),
        audio_url: v.nullable(v.string()),
        created_at: v.string(),
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
  async handle({ env, params, query }) {
    const rows = await newestForToken(env, params.token, query.limit);
    const counts: Record<string, number> = { pending: 0, rendering: 0, failed: 0, done: 0 };
    const items = rows.map((a) => {
      counts[a.status] += 1;
      return {
        slug: a.slug,
        title: a.title,
        publisher: a.publisher,
        vertical: a.vertical,
        status: a.status,
        audio_url: resolvedAudioUrl(env, a),
        created_at: a.createdAt.toISOString(),
      };
    });
    return Response.json({ items, counts }, { headers: { "Cache-Control": "no-store" } });
  },
});
