import { route } from "../../core/route";
import { openAiApp } from "../manifests/openai-app";

export const getOpenAiApp = route({
  method: "GET",
  path: "/.well-known/openai-app.yaml",
  tag: "discovery",
  summary: "Assistant-apps spec: OpenAPI 3.1 (YAML) of the agent operations with their OAuth2 scheme",
  auth: "none",
  responses: { 200: { description: "The OpenAPI document in YAML", contentType: "application/yaml" } },
  handle({ env }) {
    return new Response(openAiApp(env), {
      headers: { "Content-Type": "application/yaml; charset=utf-8", "Cache-Control": "public, max-age=300" },
    });
  },
});
