import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database } from "../../db/index";
import { blockQueue, floView } from "../flo";
import { resolvedAudioUrl } from "../listener-articles";
import { limitQuery, TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

const FloNow = named(
  "FloNow",
  v.object({
    block_id: v.string(),
    items: v.array(
      v.object({
        slug: v.string(),
        title: v.string(),
        vertical: v.string(),
        listen_seconds: v.nullable(v.number()),
        audio_ready: v.boolean(),
        audio_url: v.nullable(v.string()),
        pinned: v.pipe(v.boolean(), v.description("True for items placed by manual_order.")),
        created_at: v.string(),
      }),
    ),
  }),
);

export const getFloNow = route({
  method: "GET",
  path: "/v1/listener/:token/flo/now",
  tag: "flo",
  summary: "The queue of the active flo block: manual_order first, then vertical and tone score, then recency",
  auth: "listener_token",
  rateLimit: "read",
  params: TokenParams,
  query: limitQuery(20),
  responses: {
    200: { description: "The queue", schema: FloNow },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env, query }) {
    const db = database(env);
    const { active_block: block } = await floView(db, listener);
    const manual = new Set(block.manual_order);
    const items = (await blockQueue(db, listener, block, query.limit)).map((a) => ({
      slug: a.slug,
      title: a.title,
      vertical: a.vertical,
      listen_seconds: a.listenSeconds,
      audio_ready: a.audioReady,
      audio_url: resolvedAudioUrl(env, a),
      pinned: manual.has(a.slug),
      created_at: a.createdAt.toISOString(),
    }));
    return Response.json({ block_id: block.id, items }, { headers: { "Cache-Control": "no-store" } });
  },
});
