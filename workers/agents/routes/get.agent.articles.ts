import * as v from "valibot";
import { route } from "../../core/route";
import { toolResponse, toolResponses } from "../rest";
import { search_articles } from "../tools";

const { query, vertical, limit } = search_articles.input.entries;

export const getAgentArticles = route({
  method: "GET",
  path: "/v1/agent/articles",
  tag: "agents",
  operationId: "search_articles",
  summary: "search_articles: full-text search of the public archive",
  description: search_articles.description,
  auth: "none",
  query: v.object({ q: query, vertical, limit }),
  responses: toolResponses(search_articles),
  handle({ query, request, env }) {
    return toolResponse(search_articles, { query: query.q, vertical: query.vertical, limit: query.limit }, request, env);
  },
});
