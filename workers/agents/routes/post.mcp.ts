import { route } from "../../core/route";
import { handleMcp, mcpEndpoint } from "./post.mcp.v1";

/**
 * The MCP server at /mcp, answering exactly as /mcp/v1: the MCP Inspector's command line rewrites an
 * endpoint that does not end in /mcp to /mcp (docs/agents/clients.md "Connect a client to the local server"),
 * and /mcp is where MCP clients look first. The request goes on as a request for /mcp/v1, the one
 * path the SDK's handler serves, with its method, headers and body unchanged. POST only: GET and DELETE are
 * 405 there as at /mcp/v1 (no sessions, no server-initiated streams), from the route table.
 */
export const mcpAtRoot = route({
  ...mcpEndpoint,
  method: "POST",
  path: "/mcp",
  summary: "The MCP server, as at /mcp/v1",
  description: "The same as /mcp/v1.",
  handle: ({ grant, request, env, requestId }) =>
    handleMcp({ grant: grant ?? null, request: new Request(new URL("/mcp/v1", request.url), request), env, requestId }),
});
