import { route } from "../../core/route";
import { ListenerPreferencesView, preferencesView } from "../preferences";
import { TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

export const getPreferences = route({
  method: "GET",
  path: "/v1/listeners/:token",
  tag: "listeners",
  summary: "A listener's preferences",
  auth: "listener_token",
  rateLimit: "read",
  params: TokenParams,
  responses: {
    200: { description: "The preferences", schema: ListenerPreferencesView },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener }) {
    return Response.json(preferencesView(listener), { headers: { "Cache-Control": "no-store" } });
  },
});
