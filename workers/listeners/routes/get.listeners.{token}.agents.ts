import { listGrants } from "../../oauth/grants";
import { route } from "../../core/route";
import { TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";
import { AgentGrantList, agentGrantView } from "../agents-view";

export const listAgents = route({
  method: "GET",
  path: "/v1/listeners/:token/agents",
  tag: "listeners",
  summary: "The agents (OAuth clients) the listener allowed to act for them",
  auth: "listener_token",
  rateLimit: "read",
  params: TokenParams,
  responses: {
    200: { description: "The listener's grants, oldest first", schema: AgentGrantList },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env }) {
    const grants = await listGrants(env, listener.id);
    return Response.json({ agents: grants.map(agentGrantView) }, { headers: { "Cache-Control": "no-store" } });
  },
});
