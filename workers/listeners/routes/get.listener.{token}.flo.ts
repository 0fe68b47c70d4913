import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database } from "../../db/index";
import { FloBlockView, floView } from "../flo";
import { TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

export const FloView = named(
  "FloView",
  v.object({
    timezone: v.pipe(v.string(), v.description("The listener's saved time zone, used to pick the active block.")),
    active_block: FloBlockView,
    blocks: v.array(FloBlockView),
  }),
);

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
  async handle({ listener, env }) {
    const db = database(env);
    return Response.json(await floView(db, listener), { headers: { "Cache-Control": "no-store" } });
  },
});
