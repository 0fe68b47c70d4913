import { baseUrl } from "../../core/config";
import { openApiDocument } from "../../core/openapi";
import { route } from "../../core/route";
import { oauthDoc } from "../../kernel/oauth/server";

let cached: string | undefined;

export const getOpenApi = route({
  method: "GET",
  path: "/openapi.json",
  tag: "discovery",
  summary: "The OpenAPI 3.1 document of every route, generated from the route table",
  auth: "none",
  responses: { 200: { description: "OpenAPI document", contentType: "application/json" } },
  handle({ env, table }) {
    // The document depends only on code, BASE_URL and WEB_URL, so one build per isolate is enough.
    cached ??= JSON.stringify(openApiDocument(table, baseUrl(env), oauthDoc(env)));
    return new Response(cached, {
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
    });
  },
});
