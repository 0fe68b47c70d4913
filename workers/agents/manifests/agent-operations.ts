import type { Route } from "../../core/route";
import { getAgentArticles } from "../routes/get.agent.articles";
import { getAgentArticle } from "../routes/get.agent.articles.{slug}";
import { getAgentArticleAudio } from "../routes/get.agent.articles.{slug}.audio";
import { getAgentSubscriptions } from "../routes/get.agent.subscriptions";
import { postAgentDigest } from "../routes/post.agent.digest";
import { postAgentSubscriptions } from "../routes/post.agent.subscriptions";

/** The REST operation of each tool (docs/agents.md "Agents"), in tool order. */
export const AGENT_OPERATIONS: Route[] = [
  getAgentArticles,
  getAgentArticle,
  getAgentArticleAudio,
  postAgentSubscriptions,
  getAgentSubscriptions,
  postAgentDigest,
];

/** The operation whose operationId is `toolName`. */
export function routeOf(toolName: string): { method: string; path: string } {
  const op = AGENT_OPERATIONS.find((r) => r.operationId === toolName);
  if (!op || typeof op.method !== "string") throw new Error(`no REST operation for tool ${toolName}`);
  return { method: op.method, path: op.path };
}
