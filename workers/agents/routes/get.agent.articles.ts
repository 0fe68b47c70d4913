import * as v from "valibot";
import { route } from "../../core/route";
import { toolResponse, toolResponses } from "../rest";
import { search_articles } from "../tools";

const { query, vertical, language, limit } = search_articles.input.entries;

export const getAgentArticles = route({
  method: "GET",
  path: "/v1/agent/articles",
  tag: "agents",
  operationId: "search_articles",
  summary: "search_articles: full-text search of the public archive (OAuth bearer token with articles:read)",
  description: search_articles.description,
  auth: "bearer",
  query: v.object({ q: query, vertical, language, limit }),
  responses: toolResponses(search_articles, { bearer: true }),
  handle({ query, grant, request, env, table, requestId }) {
    // docs/agents/tools.md "Agents": this operation takes a bearer token (MCP's search_articles stays open).
    return toolResponse(
      search_articles,
      { query: query.q, vertical: query.vertical, language: query.language, limit: query.limit },
      { grant, request, env, table, requestId },
      { bearer: true },
    );
  },
});
