import * as v from "valibot";
import { revokeAllGrants } from "../../oauth/grants";
import { route } from "../../core/route";
import { TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

export const revokeAllAgents = route({
  method: "DELETE",
  path: "/v1/listeners/:token/agents",
  tag: "listeners",
  summary: "Revoke every agent's grant at once",
  auth: "listener_token",
  params: TokenParams,
  responses: {
    200: { description: "How many grants were revoked", schema: v.object({ revoked: v.pipe(v.number(), v.integer()) }) },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env }) {
    return Response.json({ revoked: await revokeAllGrants(env, listener.id) });
  },
});
