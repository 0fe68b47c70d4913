// MCP hello world: the platform's MCP endpoint with our code taken out. POST /mcp/v1 goes through the
// same `createMcpHandler` (agents/mcp/server) and SDK as the platform's, on a new McpServer per
// request; its tools answer fixed results. A result PUT to /copy/<tool name> registers that tool, so
// a bench row compares a tool of ours with the SDK moving the very same result: what the SDK costs
// by itself, before any lookup, validation or rendering of ours.
import { createMcpHandler } from "agents/mcp/server";
import { McpServer } from "@modelcontextprotocol/server";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";

const results = new Map();
const anyArguments = toStandardJsonSchema(v.looseObject({}));

function server() {
  const mcp = new McpServer({ name: "hello-world-mcp", version: "1.0.0" });
  for (const [name, result] of results) mcp.registerTool(name, { inputSchema: anyArguments }, async () => result);
  return mcp;
}

const handler = createMcpHandler(server, { route: "/mcp/v1" });

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/copy/") && request.method === "PUT") {
      results.set(pathname.slice("/copy/".length), await request.json());
      return new Response(null, { status: 204 });
    }
    // Parsed once and handed over, as the platform's endpoint does (workers/agents/routes/post.mcp.v1.ts).
    if (pathname === "/mcp/v1") return handler.fetch(request, request.method === "POST" ? { parsedBody: await request.json() } : undefined);
    return new Response("hello world\n", { headers: { "content-type": "text/plain" } });
  },
};
