import * as v from "valibot";
import { revokeGrant } from "../../oauth/grants";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { TokenParams } from "../../kernel/fields";

const GrantParams = v.object({
  ...TokenParams.entries,
  grant_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "is not a grant id"), v.description("From GET /v1/listeners/{token}/agents.")),
});

export const revokeAgent = route({
  method: "DELETE",
  path: "/v1/listeners/:token/agents/:grant_id",
  tag: "listeners",
  summary: "Revoke one agent's grant: its access and refresh tokens stop working at once",
  auth: "listener_token",
  params: GrantParams,
  responses: {
    200: { description: "Revoked", schema: v.object({ revoked: v.literal(true) }) },
    404: { description: "Unknown token, or no such grant of this listener" },
  },
  async handle({ listener, env, params }) {
    // Another listener's grant id is simply not found here (a 404, never a 403).
    if (!(await revokeGrant(env, listener.id, params.grant_id))) throw new ApiError("not_found", "no such grant");
    return Response.json({ revoked: true });
  },
});
