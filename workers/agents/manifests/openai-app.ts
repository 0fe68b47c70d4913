import { stringify } from "yaml";
import { baseUrl, webUrl } from "../../core/config";
import { openApiDocument } from "../../core/openapi";
import { TOOLS } from "../tools";
import { SCOPES } from "../tools/tool";
import { AGENT_OPERATIONS } from "./agent-operations";

type Operation = { operationId: string; security?: unknown };

/**
 * GET /.well-known/openai-app.yaml (DESIGN.md "Manifests"): the OpenAPI 3.1 document of the agent
 * operations only, in YAML, with the OAuth2 authorization-code scheme of SPEC.md part 5; each
 * operation asks for its tool's scope.
 */
export function openAiApp(env: object): string {
  const doc = openApiDocument(AGENT_OPERATIONS, baseUrl(env));
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops) as Operation[]) {
      const tool = TOOLS.find((t) => t.name === op.operationId)!;
      op.security = [{ OAuth2: [tool.scope] }];
    }
  }
  const oauth2 = {
    type: "oauth2",
    description: "OAuth 2.1 authorization code with PKCE (S256), for agents acting for a listener.",
    flows: {
      authorizationCode: {
        authorizationUrl: `${webUrl(env)}/oauth/authorize`,
        tokenUrl: `${webUrl(env)}/oauth/token`,
        scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_MEANINGS[s]])),
      },
    },
  };
  return stringify({
    ...doc,
    info: { ...doc.info, title: "Narration for assistants", description: "The agent operations: one per tool of /mcp/v1." },
    components: { ...doc.components, securitySchemes: { OAuth2: oauth2 } },
  });
}

const SCOPE_MEANINGS: Record<(typeof SCOPES)[number], string> = {
  "articles:read": "Search and read articles and get their audio",
  "subscriptions:write": "Set the listener's topics and read the feeds this app set up",
  "digest:run": "Run digests of top articles",
};
