import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { baseUrl } from "../core/config";
import { ApiError } from "../core/errors";
import { API_VERSION } from "../core/version";
import type { Caller } from "./caller";
import { accessOf, actingCaller, paidTerms, paidWork, signIn } from "./dispatch";
import { invoke } from "./invoke";
import { standardSchema } from "./json-schema";
import { TOOLS, type Tool } from "./tools";
import { paymentRequiredResult, type ToolResult, withSettlement } from "./x402/mcp-transport";
import { paidMcpCall } from "./x402/paid-call";
import { FailedAfterSettlement } from "./x402/pay";
import { mcpResource } from "./x402/requirements";
import { SIWX_META } from "./x402/siwx";
import { requestId } from "../core/request-id";

/** A tool's answer: the structured result and its JSON text, for clients that read only text (MCP "Tool Result"). */
function success(out: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
}

/**
 * One tools/call for `caller`, as README "MCP" has it: a paid tool without the token's scope goes
 * through the x402 MCP transport (the PaymentRequired as an isError result; the payment in
 * `_meta["x402/payment"]`, the settlement in the result's `_meta["x402/payment-response"]`); a wallet
 * acting for its subscription without a token signs in with `_meta["sign-in-with-x"]`.
 */
async function callTool(env: Env, tool: Tool, args: Record<string, unknown>, resolved: Caller, meta: Record<string, unknown> | undefined): Promise<ToolResult> {
  const caller = actingCaller(tool, resolved);
  const access = accessOf(tool, caller);
  if (access.kind === "run") return success(await invoke(tool, args, caller, env));
  if (access.kind === "pay") {
    const terms = await paidTerms(access.tool, args, caller, env);
    return paidMcpCall({
      env,
      tool: access.tool,
      description: tool.title,
      state: terms.state,
      listenerId: caller.listenerId,
      meta,
      ...paidWork(tool, args, caller, env, terms),
      render: success,
    });
  }
  // The proof binds the HTTP address it is sent to: the MCP endpoint.
  const signed = await signIn(env, caller, meta?.[SIWX_META], mcpResource(tool.name, tool.title), `${baseUrl(env)}/mcp/v1`);
  if (!signed.ok) return paymentRequiredResult(signed.challenge);
  return success(await invoke(tool, args, signed.caller, env));
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
      },
      async (args: Record<string, unknown>, ctx) => {
        try {
          return logCall(tool, (await callTool(env, tool, args, caller, ctx.mcpReq._meta)) as CallToolResult);
        } catch (err) {
          return logCall(tool, failure(tool, err));
        }
      },
    );
  }
  return server;
}
