import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { ApiError } from "../core/errors";
import { API_VERSION } from "../core/version";
import type { Caller } from "./caller";
import { invoke } from "./invoke";
import { standardSchema } from "./json-schema";
import { TOOLS, type Tool } from "./tools";

/** A tool's answer: the structured result and its JSON text, for clients that read only text (MCP "Tool Result"). */
function success(out: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
}

/**
 * An expected failure as a tool error (isError), which the model can read and act on; a JSON-RPC
 * error would mean the protocol itself failed (MCP "Error Handling"). Anything else is a bare
 * "internal error": messages of surprises (SQL, stack traces) never reach the client.
 */
function failure(tool: Tool, err: unknown): CallToolResult {
  if (err instanceof ApiError) {
    return {
      isError: true,
      content: [{ type: "text", text: `${err.code}: ${err.message}` }],
      structuredContent: { detail: err.message, code: err.code },
    };
  }
  console.error(`tool ${tool.name} failed: ${err instanceof Error ? err.name : typeof err}`);
  return { isError: true, content: [{ type: "text", text: "internal error" }], structuredContent: { detail: "internal error", code: "internal" } };
}

/** A fresh MCP server with the six tools, acting for `caller` (one per request: the handler is stateless). */
export function mcpServer(env: Env, caller: Caller): McpServer {
  const server = new McpServer({ name: "narration", title: "Narration: articles read aloud", version: API_VERSION });
  for (const tool of TOOLS as readonly Tool[]) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: standardSchema(tool.input),
        outputSchema: standardSchema(tool.output),
        annotations: { title: tool.title, ...tool.annotations },
      },
      async (args: Record<string, unknown>) => {
        try {
          return success(await invoke(tool, args, caller, env));
        } catch (err) {
          return failure(tool, err);
        }
      },
    );
  }
  return server;
}
