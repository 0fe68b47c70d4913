import { stringify } from "yaml";
import { baseUrl } from "../../core/config";
import { openApiDocument } from "../../core/openapi";
import { oauthDoc } from "../../oauth/server";
import { AGENT_OPERATIONS, scopeOf } from "./agent-operations";

type Operation = { operationId: string; security?: unknown };

/**
 * GET /.well-known/openai-app.yaml (docs/agents/tools.md "Agents"): the OpenAPI 3.1 document of the agent
 * operations only, in YAML, with the OAuth2 authorization-code scheme of docs/rules.md 5; each
 * operation asks for its scope.
 */
export function openAiApp(env: object): string {
  const doc = openApiDocument(AGENT_OPERATIONS, baseUrl(env), oauthDoc(env));
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops) as Operation[]) {
      op.security = [{ OAuth2: [scopeOf(op.operationId)] }];
    }
  }
  return stringify({
    ...doc,
    info: { ...doc.info, title: "Narration for assistants", description: "The agent operations: one per tool of /mcp/v1, and add_link." },
    components: { ...doc.components, securitySchemes: { OAuth2: doc.components.securitySchemes.OAuth2 } },
  });
}
