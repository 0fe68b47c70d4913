import * as v from "valibot";
import { route } from "../../core/route";
import { closeAccount } from "../account";
import { TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

export const deleteSubscription = route({
  method: "DELETE",
  path: "/v1/listeners/:token",
  tag: "listeners",
  summary: "Hard-delete the subscription; its token and feed URL answer 404 at once",
  auth: "listener_token",
  params: TokenParams,
  responses: {
    200: { description: "Deleted", schema: v.object({ deleted: v.literal(true) }) },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env }) {
    await closeAccount(env, listener.id);
    return Response.json({ deleted: true });
  },
});
