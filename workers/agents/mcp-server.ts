import { RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { McpServer, type CallToolResult, type Task } from "@modelcontextprotocol/server";
import * as v from "valibot";
import { baseUrl } from "../core/config";
import { ApiError } from "../core/errors";
import { API_VERSION } from "../core/version";
import type { Caller } from "./caller";
import { actingCaller, callTool, stepUpScope, type Surface } from "./call";
import { standardSchema } from "./json-schema";
import { type Revision, revisionOf } from "./mcp-revision";
import { createRenderTask, renderTaskResult } from "./render-tasks";
import { TOOLS, type Tool } from "./tools";
import { get_audio_url } from "./tools/get_audio_url";
import { MCP_PAYMENT_RESPONSE_META, type ToolResult, withSettlement } from "./x402/mcp-transport";
import { mcpPayments } from "./x402/paid-call";
import { FailedAfterSettlement } from "./x402/pay";
import { registerViews, viewMeta } from "./apps/views";
import { SIWX_META } from "./x402/siwx";

/**
 * What a server answering one JSON-RPC message is given, explicitly (as Cloudflare's MCP servers register their
 * tools with their context): the Worker's bindings, who calls (as the route table resolved them), the message
 * and its protocol revision (mcp-revision.ts), and the id of the HTTP request carrying it, for log lines.
 */
export interface McpContext {
  env: Env;
  caller: Caller;
  /** The JSON-RPC message; undefined for a GET, a DELETE or a body that is not JSON. */
  message: unknown;
  revision: Revision;
  requestId: string;
}

/** The context of a server for `message`, its revision read once. */
export function mcpContext(env: Env, caller: Caller, message: unknown, requestId: string): McpContext {
  return { env, caller, message, revision: revisionOf(message), requestId };
}

/** A tool's answer: the structured result and its JSON text, for clients that read only text (MCP "Tool Result"). */
function success(out: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
}

/**
 * The MCP transport of a tool call, as docs/agents/tools.md "MCP details" has it: the x402 MCP transport (the
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
function logCall(ctx: McpContext, tool: Tool, result: CallToolResult): CallToolResult {
  if (!tool.annotations.readOnlyHint || result.isError) console.log(`MCP tools/call ${tool.name} ${result.isError ? "error" : "ok"} req=${ctx.requestId}`);
  return result;
}

/**
 * The tools/list `_meta` of `tool`: its MCP Apps view, under `ui.resourceUri` and under the flat key that hosts
 * of the extension's first releases read (both, as the extension SDK's registerAppTool writes them).
 */
function toolMeta(tool: Tool): Record<string, unknown> | undefined {
  const meta = viewMeta(tool.name);
  return meta && { ...meta, [RESOURCE_URI_META_KEY]: meta.ui.resourceUri };
}

/**
 * The task of a get_audio_url call run without waiting (scope or payment, then the render started), or null:
 * a refusal (payment required, not found) creates none, nor does audio already there where the revision has a
 * ready answer need no polling (Revision.readyMakesTask).
 */
async function renderTask(ctx: McpContext, tool: Tool, ttl: number | undefined, result: ToolResult): Promise<Task | null> {
  const out = result.structuredContent as { slug?: unknown; job_id?: unknown; state?: unknown } | undefined;
  if (result.isError || typeof out?.job_id !== "string" || typeof out.slug !== "string") return null;
  if (!ctx.revision.readyMakesTask && out.state === "ready") return null;
  const audience = { listenerId: actingCaller(tool, ctx.caller).listenerId, paid: result._meta?.[MCP_PAYMENT_RESPONSE_META] !== undefined };
  return createRenderTask(ctx.env, ctx.caller, audience, out.slug, out.job_id, ttl);
}

/** What the call would have answered, once the render of `taskId` is over; nothing is charged (render-tasks.ts). */
async function taskOutcome(ctx: McpContext, taskId: string): Promise<CallToolResult> {
  try {
    return success(await renderTaskResult(ctx.env, ctx.caller, taskId)) as CallToolResult;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return failure(get_audio_url, err);
  }
}

/** The answer to one tools/call: the tool run through the MCP surface, made a task when the message asks (Revision.taskAsked). */
async function answer(ctx: McpContext, tool: Tool, args: Record<string, unknown>, meta: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const asked = ctx.revision.taskAsked(tool);
  try {
    // Every call runs on the arguments its schema leaves, whichever handler took it (issue 40 item 4): the
    // extension's own tools/call handler gets them raw, and a key the schema does not name (get_audio_url's
    // REST-only `voice`) must never reach the tool.
    const parsed = v.safeParse(tool.input, args);
    if (!parsed.success) throw new ApiError("validation_failed", "the arguments do not match the tool's input schema");
    const input = asked ? { ...parsed.output, waitSeconds: 0 } : parsed.output;
    const result = (await callTool(ctx.env, tool, input, ctx.caller, mcpSurface(ctx.env, tool, meta))) as ToolResult;
    const task = asked && (await renderTask(ctx, tool, asked.ttl, result));
    return logCall(ctx, tool, task ? ctx.revision.taskAnswer(task, result as CallToolResult) : (result as CallToolResult));
  } catch (err) {
    return logCall(ctx, tool, failure(tool, err));
  }
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

/**
 * Registers the tools a server for the context's message needs (toolsFor) with their handlers, each given
 * the context.
 */
function registerTools(server: McpServer, ctx: McpContext): void {
  for (const tool of toolsFor(ctx.message)) {
    const registered = server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: standardSchema(tool.input),
        outputSchema: standardSchema(tool.output),
        annotations: { title: tool.title, ...tool.annotations },
        _meta: toolMeta(tool),
        // A token that must be stepped up is the HTTP 403 insufficient_scope challenge of the MCP authorization
        // spec ("Scope Challenge Handling"), answered by the SDK before the tool runs, not a tool error.
        scopeChallenge: () => {
          const missing = stepUpScope(tool, ctx.caller);
          return missing ? { scopes: [missing], errorDescription: `${tool.name} needs the ${missing} scope` } : undefined;
        },
      },
      (args: Record<string, unknown>, req) => answer(ctx, tool, args, req.mcpReq._meta),
    );
    // A client may make a get_audio_url call a task (MCP 2025-11-25 "Tool-Level Negotiation"); registerTool takes no execution.
    if (tool.name === get_audio_url.name) registered.execution = { taskSupport: "optional" };
  }
  // This one call is answered by a handler of the low-level server instead (Revision.answersCallItself), after
  // the SDK's HTTP entry made its checks (scope challenge of the registered tool, standard headers).
  if (ctx.revision.answersCallItself) {
    server.server.removeRequestHandler("tools/call");
    server.server.setRequestHandler("tools/call", (request, req) => answer(ctx, get_audio_url, request.params.arguments ?? {}, req.mcpReq._meta));
  }
}

/** A fresh MCP server for one JSON-RPC message of `ctx` (one per request: the handler is stateless). */
export function mcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(
    { name: "narration", title: "Narration: articles read aloud", version: API_VERSION },
    { capabilities: ctx.revision.capabilities },
  );
  const method = (ctx.message as { method?: unknown } | null)?.method;
  if (typeof method === "string" && method.startsWith("tasks/")) ctx.revision.serveTasks(server, ctx.env, ctx.caller, (taskId) => taskOutcome(ctx, taskId));
  // The views' resources, for every message but a call (which needs its one tool only): initialize and
  // server/discover then declare `resources`, and resources/list and resources/read answer.
  if (method !== "tools/call") registerViews(server, ctx.env);
  registerTools(server, ctx);
  return server;
}
