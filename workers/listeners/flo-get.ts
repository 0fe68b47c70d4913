import * as v from "valibot";
import { route } from "../core/route";
import { named } from "../core/schema-registry";
import { database } from "../db";
import { requireListener } from "./account";
import { activeBlock, FloBlockView, loadFlo, localHour } from "./flo";
import { TOKEN_NOT_FOUND, TokenParams } from "./schemas";

export const FloView = named(
  "FloView",
  v.object({
    timezone: v.pipe(v.string(), v.description("The listener's saved time zone, used to pick the active block.")),
    active_block: FloBlockView,
    blocks: v.array(FloBlockView),
  }),
);

/** The full flo and its active block, as GET and PUT answer it. */
export async function floView(db: ReturnType<typeof database>, listener: { id: number; timezone: string }) {
  const blocks = await loadFlo(db, listener.id);
  const active = activeBlock(blocks, localHour(new Date(), listener.timezone));
  return { timezone: listener.timezone, active_block: active, blocks };
}

export const getFlo = route({
  method: "GET",
  path: "/v1/listener/:token/flo",
  tag: "flo",
  summary: "The listener's flo (defaults merged with their overrides) and the block active now in their time zone",
  auth: "listener_token",
  rateLimit: "read",
  params: TokenParams,
  responses: {
    200: { description: "The flo", schema: FloView },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ env, params }) {
    const db = database(env);
    const listener = await requireListener(db, params.token);
    return Response.json(await floView(db, listener), { headers: { "Cache-Control": "no-store" } });
  },
});
