import { route } from "../../core/route";
import { toolResponse, toolResponses } from "../rest";
import { get_article } from "../tools";

export const getAgentArticle = route({
  method: "GET",
  path: "/v1/agent/articles/:slug",
  tag: "agents",
  operationId: "get_article",
  summary: "get_article: the full record of one article",
  description: get_article.description,
  auth: "agent",
  params: get_article.input,
  responses: { ...toolResponses(get_article), 404: { description: "No such article (or another listener's private one)" } },
  handle({ params, grant, request, env, table, requestId }) {
    return toolResponse(get_article, params, { grant, request, env, table, requestId });
  },
});
