import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database } from "../../db/index";
import { BLOCK_IDS, floView, saveFloBlocks, TONES } from "../flo";
import { FloView } from "./get.listener.{token}.flo";
import { TOKEN_NOT_FOUND, TokenParams, VerticalList } from "../../kernel/fields";

const FloUpdate = named(
  "FloUpdate",
  v.object({
    blocks: v.pipe(
      v.array(
        v.strictObject({
          id: v.pipe(v.picklist(BLOCK_IDS), v.description("The block to change; blocks not listed keep their state.")),
          verticals: v.optional(VerticalList),
          tone: v.optional(v.picklist(TONES)),
          manual_order: v.pipe(
            v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200))), v.maxLength(100))),
            v.description("Article slugs in drag-drop order; persisted and put first in flo/now."),
          ),
        }),
      ),
      v.minLength(1),
      v.maxLength(BLOCK_IDS.length),
      v.check((blocks) => new Set(blocks.map((b) => b.id)).size === blocks.length, "each block may appear once"),
    ),
  }),
);

export const putFlo = route({
  method: "PUT",
  path: "/v1/listener/:token/flo",
  tag: "flo",
  summary: "Change flo blocks; only the blocks present change, and within them only the fields present",
  auth: "listener_token",
  params: TokenParams,
  body: FloUpdate,
  responses: {
    200: { description: "The flo after the change", schema: FloView },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env, body }) {
    const db = database(env);
    await saveFloBlocks(db, listener.id, body.blocks as [(typeof body.blocks)[number], ...typeof body.blocks]);
    return Response.json(await floView(db, listener));
  },
});
