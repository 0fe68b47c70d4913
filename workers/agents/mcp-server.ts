import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { baseUrl } from "../core/config";
import { ApiError } from "../core/errors";
import { API_VERSION } from "../core/version";
import type { Caller } from "./caller";
import { callTool, stepUpScope, type Surface } from "./call";
import { standardSchema } from "./json-schema";
import { TOOLS, type Tool } from "./tools";
import { type ToolResult, withSettlement } from "./x402/mcp-transport";
import { mcpPayments } from "./x402/paid-call";
import { FailedAfterSettlement } from "./x402/pay";
import { SIWX_META } from "./x402/siwx";
import { requestId } from "../core/request-id";

/** A tool's answer: the structured result and its JSON text, for clients that read only text (MCP "Tool Result"). */
function success(out: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
}

/**
 * The MCP transport of a tool call, as docs/agents.md "MCP details" has it: the x402 MCP transport (the
 * PaymentRequired as an isError result; the payment in `_meta["x402/payment"]`, the settlement in the
 * result's `_meta["x402/payment-response"]`), Sign-In-With-X in `_meta["sign-in-with-x"]`, whose proof
 * binds the HTTP address it is sent to (the MCP endpoint).
 */
function mcpSurface(env: Env, tool: Tool, meta: Record<string, unknown> | undefined): Surface<ToolResult> {
  return { ...mcpPayments(tool, meta), signInProof: () => meta?.[SIWX_META], signInUri: `${baseUrl(env)}/mcp/v1`, render: success };
}

/**
 * An expected failure as a tool error (isError), which the model can read and act on; a JSON-RPC
 * error would mean the protocol itself failed (MCP "Error Handling"). Anything else is a bare
 * "internal error": messages of surprises (SQL, stack traces) never reach the client.
 */
function failure(tool: Tool, err: unknown): CallToolResult {
  // Paid for, then failed: the error, with the settlement that spent the authorization (transports-v2/mcp.md).
  if (err instanceof FailedAfterSettlement) return withSettlement(failure(tool, err.error) as ToolResult, err.settlement) as CallToolResult;
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

/**
 * The request log's line for a tool call. The router logs a POST to /mcp/v1 only when the HTTP
 * exchange fails (Route.quiet), as reads are not logged: here the calls that may write and the
 * calls that failed get their line, by tool name (README, the paragraph after the quick start).
 */
function logCall(tool: Tool, result: CallToolResult): CallToolResult {
  if (!tool.annotations.readOnlyHint || result.isError) console.log(`MCP tools/call ${tool.name} ${result.isError ? "error" : "ok"} req=${requestId()}`);
  return result;
}

/**
 * The tools a server for `message` needs. The handler is stateless, so a server answers one
 * message: a tools/call needs only the tool it names, and registering the other five was about 5 %
 * of a free call (bench/README, "Where the time went", item 6). Any other message (initialize,
 * tools/list) and a call of an unknown tool get all six, so the SDK answers them as it always does.
 */
function toolsFor(message: unknown): readonly Tool[] {
  const call = message as { method?: unknown; params?: { name?: unknown } } | null;
  if (call?.method !== "tools/call") return TOOLS;
  const named = (TOOLS as readonly Tool[]).find((tool) => tool.name === call.params?.name);
  return named ? [named] : TOOLS;
}

/** A fresh MCP server acting for `caller`, for one JSON-RPC `message` (one per request: the handler is stateless). */
export function mcpServer(env: Env, caller: Caller, message: unknown): McpServer {
  const server = new McpServer({ name: "narration", title: "Narration: articles read aloud", version: API_VERSION });
  for (const tool of toolsFor(message)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: standardSchema(tool.input),
        outputSchema: standardSchema(tool.output),
        annotations: { title: tool.title, ...tool.annotations },
        // A token that must be stepped up is the HTTP 403 insufficient_scope challenge of the MCP authorization
        // spec ("Scope Challenge Handling"), answered by the SDK before the tool runs, not a tool error.
        scopeChallenge: () => {
          const missing = stepUpScope(tool, caller);
          return missing ? { scopes: [missing], errorDescription: `${tool.name} needs the ${missing} scope` } : undefined;
        },
      },
      async (args: Record<string, unknown>, ctx) => {
        try {
          return logCall(tool, (await callTool(env, tool, args, caller, mcpSurface(env, tool, ctx.mcpReq._meta))) as CallToolResult);
        } catch (err) {
          return logCall(tool, failure(tool, err));
        }
      },
    );
  }
  return server;
}
