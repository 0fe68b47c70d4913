import { type CallToolResult, type McpServer, PROTOCOL_VERSION_META_KEY, RELATED_TASK_META_KEY, type Task } from "@modelcontextprotocol/server";
import * as v from "valibot";
import type { Caller } from "./caller";
import { cancelRenderTask, getRenderTask, listRenderTasks } from "./render-tasks";
import { createTaskResult, declaresTasks, serveTasksExtension, TASKS_EXTENSION_CAPABILITY } from "./tasks-extension";
import type { Tool } from "./tools";
import { get_audio_url } from "./tools/get_audio_url";
import { UI_EXTENSION_CAPABILITY } from "./apps/views";

/**
 * The one place that knows the MCP revisions this server speaks (docs/agents/tools.md "MCP details"): 2025-11-25,
 * where tasks are part of the protocol, and 2026-07-28, which names its revision in every request's `_meta` and
 * where tasks are the extension `io.modelcontextprotocol/tasks` (tasks-extension.ts). mcp-server.ts asks the
 * revision of the message it answers and never tests one itself.
 */
export interface Revision {
  /** What the server declares: tasks as the revision has them, and the MCP Apps extension (apps/views.ts). */
  capabilities: Record<string, unknown>;
  /**
   * The task a tools/call of `tool` asks to be run as, or null. Only get_audio_url renders long enough to be
   * one: at 2025-11-25 when the call carries `task` (its `ttl` in ms, if any), at 2026-07-28 when the request
   * declares the extension and its arguments are valid (the server decides; invalid ones get the tool's error).
   */
  taskAsked(tool: Tool): { ttl?: number } | null;
  /** Whether audio already there still makes a task: not at 2026-07-28, where a ready answer needs no polling. */
  readyMakesTask: boolean;
  /** The answer of a call made `task`, beside (2025-11-25) or instead of (2026-07-28) its pending `result`. */
  taskAnswer(task: Task, result: CallToolResult): CallToolResult;
  /**
   * Whether the SDK's own tools/call handler must be replaced for this message: it checks each answer against
   * the tool's output schema, which a 2026-07-28 CreateTaskResult (no structuredContent) fails.
   */
  answersCallItself: boolean;
  /** Serves the revision's task methods for `caller`; `outcome` is what the call would have answered once over. */
  serveTasks(server: McpServer, env: Env, caller: Caller, outcome: (taskId: string) => Promise<CallToolResult>): void;
}

type Message = { method?: unknown; params?: { name?: unknown; arguments?: unknown; task?: unknown; _meta?: Record<string, unknown> } } | null;

/** The revision of `message`: 2026-07-28 when its `_meta` names a revision, else 2025-11-25. */
export function revisionOf(message: unknown): Revision {
  const m = message as Message;
  return m?.params?._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined ? extensionRevision(m) : classicRevision(m);
}

/** A tools/call of get_audio_url: the one tool a task is made of. */
const callsAudio = (m: Message, tool?: Tool) =>
  m?.method === "tools/call" && m.params?.name === get_audio_url.name && (!tool || tool.name === get_audio_url.name);

/**
 * What a 2025-11-25 server tells clients of tasks ("Tasks", "Capabilities"): tools/call may be made a task, and
 * tasks can be listed and cancelled.
 */
const TASKS_CAPABILITY = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

function classicRevision(m: Message): Revision {
  const task = m?.params?.task;
  return {
    capabilities: { ...TASKS_CAPABILITY, extensions: UI_EXTENSION_CAPABILITY },
    taskAsked(tool) {
      if (!callsAudio(m, tool) || typeof task !== "object" || task === null) return null;
      const ttl = (task as { ttl?: unknown }).ttl;
      return typeof ttl === "number" && Number.isFinite(ttl) ? { ttl } : {};
    },
    readyMakesTask: true,
    // The SDK validates every tools/call answer as a CallToolResult, so the result stays and `task` rides along
    // (results are open objects): a task-aware client reads `task`, any other still reads a full answer.
    taskAnswer: (created, result) => ({ ...result, task: created }) as CallToolResult,
    answersCallItself: false,
    serveTasks: serveClassicTasks,
  };
}

function extensionRevision(m: Message): Revision {
  const asked = callsAudio(m) && declaresTasks(m) && v.is(get_audio_url.input, m?.params?.arguments ?? {});
  return {
    capabilities: { extensions: { ...TASKS_EXTENSION_CAPABILITY.extensions, ...UI_EXTENSION_CAPABILITY } },
    taskAsked: (tool) => (asked && tool.name === get_audio_url.name ? {} : null),
    readyMakesTask: false,
    taskAnswer: (created, result) => createTaskResult(created, result._meta) as unknown as CallToolResult,
    answersCallItself: asked,
    serveTasks: (server, env, caller, outcome) => serveTasksExtension(server, env, caller, m, outcome),
  };
}

/**
 * tasks/get, tasks/result, tasks/list and tasks/cancel at 2025-11-25 for `caller`'s render tasks
 * (render-tasks.ts). tasks/result answers as the call would have, marked with the task (`_meta`
 * "io.modelcontextprotocol/related-task"), and charges nothing.
 */
function serveClassicTasks(server: McpServer, env: Env, caller: Caller, outcome: (taskId: string) => Promise<CallToolResult>): void {
  // The 2025-11-25 task methods are not in the SDK's typed method table: each is declared with its params.
  const byId = { params: v.object({ taskId: v.string() }) };
  server.server.setRequestHandler("tasks/get", byId, ({ taskId }) => getRenderTask(env, caller, taskId));
  server.server.setRequestHandler("tasks/list", { params: v.object({}) }, async () => ({ tasks: await listRenderTasks(env, caller) }));
  server.server.setRequestHandler("tasks/cancel", byId, ({ taskId }) => cancelRenderTask(env, caller, taskId));
  server.server.setRequestHandler("tasks/result", byId, async ({ taskId }) => ({
    ...(await outcome(taskId)),
    _meta: { [RELATED_TASK_META_KEY]: { taskId } },
  }));
}
