import { createMcpHandler } from "agents/mcp/server";
import { localhostAllowedOrigins } from "@modelcontextprotocol/server";
import { baseUrl, webUrl } from "../../core/config";
import { route } from "../../core/route";
import { readBodyText } from "../../core/validate";
import { resolveCaller } from "../caller";
import { mcpServer } from "../mcp-server";

/**
 * Origins a browser-based MCP client may call from. The Streamable HTTP transport requires servers
 * to validate Origin against DNS rebinding (MCP 2025-11-25, Transports, "Security Warning"):
 * localhost-class origins and the service's own front-end; any other Origin gets 403.
 * Clients that send no Origin (SDKs, desktop apps) are served.
 */
function allowedOrigins(env: object): string[] {
  return [...new Set([...localhostAllowedOrigins(), new URL(baseUrl(env)).hostname, new URL(webUrl(env)).hostname])];
}

export const mcpEndpoint = route({
  method: ["POST", "GET", "DELETE"],
  path: "/mcp/v1",
  tag: "agents",
  summary: "The remote MCP server: the six agent tools over Streamable HTTP (stateless)",
  description:
    "JSON-RPC over Streamable HTTP (MCP revisions 2025-11-25 and 2026-07-28), stateless: POST each message; GET and " +
    "DELETE answer 405 as the transport allows for servers without sessions. Tools: search_articles, get_article, " +
    "get_audio_url, subscribe_topic, list_subscriptions, digest.",
  auth: "none",
  quiet: true,
  responses: {
    200: { description: "A JSON-RPC response (application/json or text/event-stream)", contentType: "application/json" },
    401: { description: "An invalid, expired or revoked bearer token", headers: { "WWW-Authenticate": "Bearer resource_metadata=..." } },
    403: { description: "An Origin that is not allowed" },
  },
  async handle({ request, env }) {
    // A bad bearer token is an HTTP 401 with its challenge before any JSON-RPC is read (README "MCP").
    const caller = await resolveCaller(request, env);
    const handler = (message?: unknown) =>
      createMcpHandler(() => mcpServer(env, caller, message), {
        route: "/mcp/v1",
        allowedOriginHostnames: allowedOrigins(env),
      });
    if (request.method !== "POST") return handler().fetch(request);
    // Parsed once here: without it the handler and the SDK's transport each clone and parse the body.
    const text = await readBodyText(request);
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(text);
    } catch {
      // Not JSON: the SDK answers with its JSON-RPC parse error, reading the body itself.
      return handler().fetch(new Request(request, { body: text }));
    }
    return handler(parsedBody).fetch(request, { parsedBody });
  },
});
