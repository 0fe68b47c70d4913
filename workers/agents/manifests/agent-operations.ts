import type { Route } from "../../core/route";
import { getAgentArticles } from "../routes/get.agent.articles";
import { getAgentArticle } from "../routes/get.agent.articles.{slug}";
import { getAgentArticleAudio } from "../routes/get.agent.articles.{slug}.audio";
import { getAgentSubscriptions } from "../routes/get.agent.subscriptions";
import { postAgentDigest } from "../routes/post.agent.digest";
import { postAgentLinks } from "../routes/post.agent.links";
import { postAgentSubscriptions } from "../routes/post.agent.subscriptions";
import type { Scope } from "../../oauth/scopes";
import { TOOLS } from "../tools";

/**
 * The REST operation of each tool (docs/agents/tools.md "Agents"), in tool order, then the one operation that
 * is REST only (add_link: MCP keeps SPEC.md's six tools).
 */
export const AGENT_OPERATIONS: Route[] = [
  getAgentArticles,
  getAgentArticle,
  getAgentArticleAudio,
  postAgentSubscriptions,
  getAgentSubscriptions,
  postAgentDigest,
  postAgentLinks,
];

/** The scope of each operation that is no tool's. */
const REST_ONLY_SCOPES: Record<string, Scope> = { add_link: "links:write" };

/** The OAuth scope an agent operation asks for: its tool's, or its own for a REST-only one. */
export function scopeOf(operationId: string): Scope {
  const scope = TOOLS.find((t) => t.name === operationId)?.scope ?? REST_ONLY_SCOPES[operationId];
  if (!scope) throw new Error(`no scope for agent operation ${operationId}`);
  return scope;
}

/** The operation whose operationId is `toolName`. */
export function routeOf(toolName: string): { method: string; path: string } {
  const op = AGENT_OPERATIONS.find((r) => r.operationId === toolName);
  if (!op || typeof op.method !== "string") throw new Error(`no REST operation for tool ${toolName}`);
  return { method: op.method, path: op.path };
}
