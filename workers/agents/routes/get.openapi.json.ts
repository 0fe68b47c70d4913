import { conditional, entityTag } from "../../core/conditional";
import { baseUrl } from "../../core/config";
import { openApiDocument } from "../../core/openapi";
import { route } from "../../core/route";
import { oauthDoc } from "../../oauth/server";

let cached: Promise<{ json: string; etag: string }> | undefined;

export const getOpenApi = route({
  method: "GET",
  path: "/openapi.json",
  tag: "discovery",
  summary: "The OpenAPI 3.1 document of every route, generated from the route table",
  auth: "none",
  responses: {
    200: { description: "OpenAPI document", contentType: "application/json", headers: { ETag: "Strong validator of the document" } },
    304: { description: "The document is the one named in If-None-Match" },
  },
  async handle({ env, request, table }) {
    // The document depends only on code, BASE_URL and WEB_URL, so one build per isolate is enough.
    cached ??= (async () => {
      const json = JSON.stringify(openApiDocument(table, baseUrl(env), oauthDoc(env)));
      return { json, etag: await entityTag(json) };
    })();
    const { json, etag } = await cached;
    const response = new Response(json, {
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300", ETag: etag },
    });
    return conditional(request, response);
  },
});
