import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { newestForToken, resolvedAudioUrl } from "../../kernel/listener-articles";
import { limitQuery, TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

const ListenerFeed = named(
  "ListenerFeed",
  v.object({
    items: v.array(
      v.object({
        slug: v.string(),
        title: v.string(),
        publisher: v.string(),
        vertical: v.string(),
        summary: v.string(),
        listen_seconds: v.nullable(v.number()),
        audio_ready: v.pipe(v.boolean(), v.description("True when a done render job exists for the article.")),
        audio_url: v.pipe(v.nullable(v.string()), v.description("The playable MP3 when audio_ready.")),
        created_at: v.string(),
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
  async handle({ env, params, query }) {
    const rows = await newestForToken(env, params.token, query.limit);
    const items = rows.map((a) => ({
      slug: a.slug,
      title: a.title,
      publisher: a.publisher,
      vertical: a.vertical,
      summary: a.summary,
      listen_seconds: a.listenSeconds,
      audio_ready: a.audioReady,
      audio_url: resolvedAudioUrl(env, a),
      created_at: a.createdAt.toISOString(),
    }));
    return Response.json({ items }, { headers: { "Cache-Control": "no-store" } });
  },
});
