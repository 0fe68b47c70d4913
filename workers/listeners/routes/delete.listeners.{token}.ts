import * as v from "valibot";
import { route } from "../../core/route";
import { deleteListener } from "../account";
import { TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";
import { revokeAllGrants } from "../../kernel/oauth/grants";

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
    // Grants first: should the delete then fail, no agent keeps acting for a listener who asked to leave.
    await revokeAllGrants(env, listener.id);
    await deleteListener(env, listener.id);
    return Response.json({ deleted: true });
  },
});
