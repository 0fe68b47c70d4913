import { RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { McpServer, PROTOCOL_VERSION_META_KEY, RELATED_TASK_META_KEY, type CallToolResult, type Task } from "@modelcontextprotocol/server";
import * as v from "valibot";
import { baseUrl } from "../core/config";
import { ApiError } from "../core/errors";
import { API_VERSION } from "../core/version";
import type { Caller } from "./caller";
import { actingCaller, callTool, stepUpScope, type Surface } from "./call";
import { standardSchema } from "./json-schema";
import { cancelRenderTask, createRenderTask, getRenderTask, listRenderTasks, renderTaskResult } from "./render-tasks";
import { createTaskResult, declaresTasks, serveTasksExtension, TASKS_EXTENSION_CAPABILITY } from "./tasks-extension";
import { TOOLS, type Tool } from "./tools";
import { get_audio_url } from "./tools/get_audio_url";
import { MCP_PAYMENT_RESPONSE_META, type ToolResult, withSettlement } from "./x402/mcp-transport";
import { mcpPayments } from "./x402/paid-call";
import { FailedAfterSettlement } from "./x402/pay";
import { registerViews, UI_EXTENSION_CAPABILITY, viewMeta } from "./apps/views";
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
 * What a server tells clients of tasks (MCP 2025-11-25 "Tasks", "Capabilities"): tools/call may be made a
 * task, and tasks can be listed and cancelled. The SDK leaves this out of its 2026-07-28 answers, where
 * tasks moved to an extension (TASKS_EXTENSION_CAPABILITY, tasks-extension.ts).
 */
const TASKS_CAPABILITY = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

/** What a server of `message`'s revision declares: tasks as that revision has them, and the MCP Apps extension (apps/views.ts). */
function capabilitiesFor(message: unknown) {
  if (modern(message)) return { extensions: { ...TASKS_EXTENSION_CAPABILITY.extensions, ...UI_EXTENSION_CAPABILITY } };
  return { ...TASKS_CAPABILITY, extensions: UI_EXTENSION_CAPABILITY };
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
 * True for a request of the 2026-07-28 revision, which names its revision in `_meta` on every request;
 * tasks there are the extension `io.modelcontextprotocol/tasks` (tasks-extension.ts).
 */
function modern(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  return meta?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/**
 * The `task` a tools/call of `tool` asks to be run as, or null: only get_audio_url renders long enough
 * to be one, and only on the 2025-11-25 revision.
 */
function taskAsked(tool: Tool, message: unknown): { ttl?: number } | null {
  const task = (message as { params?: { task?: unknown } } | null)?.params?.task;
  if (tool.name !== get_audio_url.name || modern(message) || typeof task !== "object" || task === null) return null;
  const ttl = (task as { ttl?: unknown }).ttl;
  return typeof ttl === "number" && Number.isFinite(ttl) ? { ttl } : {};
}

/**
 * The task of a get_audio_url call run without waiting (scope or payment, then the render started), or null:
 * a refusal (payment required, not found) creates none, and at 2026-07-28 neither does audio already there
 * (`pendingOnly`: the server decides there, and a ready answer needs no polling).
 */
async function renderTask(env: Env, tool: Tool, caller: Caller, ttl: number | undefined, result: ToolResult, pendingOnly: boolean): Promise<Task | null> {
  const out = result.structuredContent as { slug?: unknown; job_id?: unknown; state?: unknown } | undefined;
  if (result.isError || typeof out?.job_id !== "string" || typeof out.slug !== "string") return null;
  if (pendingOnly && out.state === "ready") return null;
  const audience = { listenerId: actingCaller(tool, caller).listenerId, paid: result._meta?.[MCP_PAYMENT_RESPONSE_META] !== undefined };
  return createRenderTask(env, caller, audience, out.slug, out.job_id, ttl);
}

/**
 * get_audio_url as a task at 2025-11-25: its answer carries the task (CreateTaskResult) beside the pending or
 * ready result. The SDK validates every tools/call answer as a CallToolResult, so the result stays and `task`
 * rides along (results are open objects); a task-aware client reads `task`, any other still reads a full answer.
 */
async function asTask(env: Env, tool: Tool, caller: Caller, asked: { ttl?: number }, result: ToolResult): Promise<CallToolResult> {
  const task = await renderTask(env, tool, caller, asked.ttl, result, false);
  return (task ? { ...result, task } : result) as CallToolResult;
}

/** get_audio_url at 2026-07-28 for a client declaring the tasks extension: a pending render answers `resultType: "task"`. */
async function asExtensionTask(env: Env, tool: Tool, caller: Caller, result: ToolResult): Promise<CallToolResult> {
  const task = await renderTask(env, tool, caller, undefined, result, true);
  return (task ? createTaskResult(task, result._meta) : result) as CallToolResult;
}

/** What the call would have answered, once the render of `taskId` is over; nothing is charged (render-tasks.ts). */
async function taskOutcome(env: Env, caller: Caller, taskId: string): Promise<CallToolResult> {
  try {
    return success(await renderTaskResult(env, caller, taskId)) as CallToolResult;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return failure(get_audio_url, err);
  }
}

/**
 * tasks/get, tasks/result, tasks/list and tasks/cancel for `caller`'s render tasks (render-tasks.ts), on a
 * server answering one of them. tasks/result answers as the call would have, marked with the task
 * (`_meta` "io.modelcontextprotocol/related-task"), and charges nothing.
 */
function serveTasks(server: McpServer, env: Env, caller: Caller): void {
  // The 2025-11-25 task methods are not in the SDK's typed method table: each is declared with its params.
  const byId = { params: v.object({ taskId: v.string() }) };
  server.server.setRequestHandler("tasks/get", byId, ({ taskId }) => getRenderTask(env, caller, taskId));
  server.server.setRequestHandler("tasks/list", { params: v.object({}) }, async () => ({ tasks: await listRenderTasks(env, caller) }));
  server.server.setRequestHandler("tasks/cancel", byId, ({ taskId }) => cancelRenderTask(env, caller, taskId));
  server.server.setRequestHandler("tasks/result", byId, async ({ taskId }) => ({
    ...(await taskOutcome(env, caller, taskId)),
    _meta: { [RELATED_TASK_META_KEY]: { taskId } },
  }));
}

/**
 * True for a tools/call of get_audio_url at 2026-07-28 whose request declares the tasks extension and whose
 * arguments are valid (invalid ones get the SDK's own input error, through its handler).
 */
function extensionTaskCall(message: unknown): boolean {
  const call = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
  return (
    call?.method === "tools/call" &&
    call.params?.name === get_audio_url.name &&
    modern(message) &&
    declaresTasks(message) &&
    v.is(get_audio_url.input, call.params?.arguments ?? {})
  );
}

/** The answer to one tools/call: the tool run through the MCP surface; `asked`: the 2025-11-25 task asked for. */
async function answer(
  env: Env,
  tool: Tool,
  caller: Caller,
  args: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
  message: unknown,
): Promise<CallToolResult> {
  const asked = taskAsked(tool, message);
  const extension = extensionTaskCall(message);
  try {
    // Every call runs on the arguments its schema leaves, whichever handler took it (issue 40 item 4): the
    // extension's own tools/call handler gets them raw, and a key the schema does not name (get_audio_url's
    // REST-only `voice`) must never reach the tool.
    const parsed = v.safeParse(tool.input, args);
    if (!parsed.success) throw new ApiError("validation_failed", "the arguments do not match the tool's input schema");
    const input = asked || extension ? { ...parsed.output, waitSeconds: 0 } : parsed.output;
    const result = (await callTool(env, tool, input, caller, mcpSurface(env, tool, meta))) as ToolResult;
    if (asked) return logCall(tool, await asTask(env, tool, caller, asked, result));
    return logCall(tool, extension ? await asExtensionTask(env, tool, caller, result) : (result as CallToolResult));
  } catch (err) {
    return logCall(tool, failure(tool, err));
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

/** A fresh MCP server acting for `caller`, for one JSON-RPC `message` (one per request: the handler is stateless). */
export function mcpServer(env: Env, caller: Caller, message: unknown): McpServer {
  const server = new McpServer(
    { name: "narration", title: "Narration: articles read aloud", version: API_VERSION },
    { capabilities: capabilitiesFor(message) },
  );
  const method = (message as { method?: unknown } | null)?.method;
  if (typeof method === "string" && method.startsWith("tasks/")) {
    if (modern(message)) serveTasksExtension(server, env, caller, message, (taskId) => taskOutcome(env, caller, taskId));
    else serveTasks(server, env, caller);
  }
  // The views' resources, for every message but a call (which needs its one tool only): initialize and
  // server/discover then declare `resources`, and resources/list and resources/read answer.
  if (method !== "tools/call") registerViews(server, env);
  for (const tool of toolsFor(message)) {
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
          const missing = stepUpScope(tool, caller);
          return missing ? { scopes: [missing], errorDescription: `${tool.name} needs the ${missing} scope` } : undefined;
        },
      },
      (args: Record<string, unknown>, ctx) => answer(env, tool, caller, args, ctx.mcpReq._meta, message),
    );
    // A client may make a get_audio_url call a task (MCP 2025-11-25 "Tool-Level Negotiation"); registerTool takes no execution.
    if (tool.name === get_audio_url.name) registered.execution = { taskSupport: "optional" };
  }
  // McpServer's tools/call checks each answer against the tool's output schema, which a CreateTaskResult (no
  // structuredContent) fails: this one call is answered by a handler of the low-level server instead, after the
  // SDK's HTTP entry made its checks (scope challenge of the registered tool, standard headers).
  if (extensionTaskCall(message)) {
    server.server.removeRequestHandler("tools/call");
    server.server.setRequestHandler("tools/call", (request, ctx) =>
      answer(env, get_audio_url, caller, request.params.arguments ?? {}, ctx.mcpReq._meta, message),
    );
  }
  return server;
}
