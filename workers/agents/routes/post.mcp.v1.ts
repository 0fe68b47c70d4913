import { createMcpHandler } from "agents/mcp/server";
import { type AuthInfo, localhostAllowedOrigins } from "@modelcontextprotocol/server";
import { bearerToken } from "../../core/auth";
import { protectedResourceMetadataUrl } from "../../oauth/server";
import { baseUrl, webUrl } from "../../core/config";
import { route } from "../../core/route";
import { readBodyText } from "../../core/validate";
import type { OAuthGrant } from "../../core/grant";
import { callerOf } from "../caller";
import { spendAgentBudget } from "../call";
import { type McpContext, mcpContext, mcpServer } from "../mcp-server";

/**
 * Origins a browser-based MCP client may call from. The Streamable HTTP transport requires servers
 * to validate Origin against DNS rebinding (MCP 2025-11-25, Transports, "Security Warning"):
 * localhost-class origins and the service's own front-end; any other Origin gets 403.
 * Clients that send no Origin (SDKs, desktop apps) are served.
 */
function allowedOrigins(env: object): string[] {
  return [...new Set([...localhostAllowedOrigins(), new URL(baseUrl(env)).hostname, new URL(webUrl(env)).hostname])];
}

/**
 * The MCP handler for one exchange, whose factory builds the server from the exchange's context, given here
 * as a value (mcp-server.ts McpContext): the handler is stateless, so each request gets its own server anyway.
 */
function handlerFor(ctx: McpContext) {
  return createMcpHandler(() => mcpServer(ctx), { route: "/mcp/v1", allowedOriginHostnames: allowedOrigins(ctx.env) });
}

/**
 * What the SDK knows of the bearer token the route table validated: enough for its scope challenges
 * (mcp-server.ts) to name the resource's metadata, as every other challenge of this API does.
 */
function authInfoOf(env: Env, request: Request, grant: OAuthGrant | null): AuthInfo | undefined {
  const token = grant && bearerToken(request.headers.get("Authorization"));
  if (!grant || !token) return undefined;
  return { token, clientId: grant.clientId, scopes: grant.scopes, resourceMetadataUrl: protectedResourceMetadataUrl(env) };
}

/** Serves one HTTP request of `caller`, with its JSON-RPC message when the body was parsed. */
function serve(ctx: McpContext, request: Request, authInfo: AuthInfo | undefined, parsedBody?: unknown): Promise<Response> {
  return handlerFor(ctx).fetch(request, parsedBody === undefined ? { authInfo } : { parsedBody, authInfo });
}

/** True for a task method's message (tasks/get, tasks/result, tasks/list, tasks/cancel, tasks/update). */
function isTaskMethod(message: unknown): message is { method: string } {
  const method = (message as { method?: unknown } | null)?.method;
  return typeof method === "string" && method.startsWith("tasks/");
}

/**
 * Serves one HTTP exchange of the MCP endpoint for the grant the route table resolved. `request` must
 * address /mcp/v1, the one route the SDK's handler answers (post.mcp.ts rewrites /mcp to it).
 */
export async function handleMcp({
  grant,
  request,
  env,
  requestId,
}: {
  grant: OAuthGrant | null;
  request: Request;
  env: Env;
  requestId: string;
}): Promise<Response> {
  // A bad bearer token was the route table's HTTP 401, before any JSON-RPC is read (docs/agents/tools.md "MCP details").
  const caller = callerOf(grant, request, requestId);
  const authInfo = authInfoOf(env, request, grant);
  if (request.method !== "POST") return serve(mcpContext(env, caller, undefined, requestId), request, authInfo);
  // Parsed once here: without it the handler and the SDK's transport each clone and parse the body.
  const text = await readBodyText(request);
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(text);
  } catch {
    // Not JSON: the SDK answers with its JSON-RPC parse error, reading the body itself.
    return serve(mcpContext(env, caller, undefined, requestId), new Request(request, { body: text }), authInfo);
  }
  // A task method is a read of the caller's budget, as a read tool is (issue 40 item 5): polling is limited too,
  // refused as HTTP 429 with Retry-After before any row is read.
  if (isTaskMethod(parsedBody)) await spendAgentBudget(env, caller, parsedBody.method, 1);
  return serve(mcpContext(env, caller, parsedBody, requestId), request, authInfo, parsedBody);
}

export const mcpEndpoint = route({
  method: ["POST", "GET", "DELETE"],
  path: "/mcp/v1",
  tag: "agents",
  summary: "The remote MCP server: the six agent tools over Streamable HTTP (stateless)",
  description:
    "JSON-RPC over Streamable HTTP (MCP revisions 2025-11-25 and 2026-07-28), stateless: POST each message; GET and " +
    "DELETE answer 405 as the transport allows for servers without sessions. Tools: search_articles, get_article, " +
    "get_audio_url, subscribe_topic, list_subscriptions, digest. Resources: the MCP Apps views of get_audio_url and " +
    'search_articles (ui://narration/player, ui://narration/search; docs/agents/apps.md "A player inside the chat").',
  auth: "agent",
  quiet: true,
  responses: {
    200: { description: "A JSON-RPC response (application/json or text/event-stream)", contentType: "application/json" },
    401: { description: "An invalid, expired or revoked bearer token", headers: { "WWW-Authenticate": "Bearer resource_metadata=..." } },
    403: { description: "An Origin not allowed, or a token to step up", headers: { "WWW-Authenticate": 'Bearer error="insufficient_scope", scope=...' } },
  },
  handle: handleMcp,
});
