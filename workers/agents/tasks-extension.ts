import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  type McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  type Task,
} from "@modelcontextprotocol/server";
import * as v from "valibot";
import type { Caller } from "./caller";
import { cancelRenderTask, getRenderTask } from "./render-tasks";

/**
 * get_audio_url's render tasks on the 2026-07-28 revision, where tasks are the extension
 * `io.modelcontextprotocol/tasks` (its specification, modelcontextprotocol/ext-tasks
 * specification/2026-07-28/tasks.md; docs/agents/tasks.md "Long renders as tasks"). The tasks are the same
 * render tasks as at 2025-11-25 (render-tasks.ts: storage, ownership, expiry); this module only speaks the
 * extension's wire: `resultType: "task"` on the call, tasks/get carrying the result, tasks/update and
 * tasks/cancel acknowledged. Written here because @modelcontextprotocol/server 2.4 serves no part of the
 * extension and @modelcontextprotocol/ext-tasks 0.2.2 is a requester only.
 */

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** What a server tells 2026-07-28 clients (server/discover): it serves the extension, which has no settings. */
export const TASKS_EXTENSION_CAPABILITY = { extensions: { [TASKS_EXTENSION]: {} } };

/** True when the request declares the extension in its own capabilities (`_meta`), as each request must for a task. */
export function declaresTasks(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  const extensions = (meta?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  const declared = extensions?.[TASKS_EXTENSION];
  return typeof declared === "object" && declared !== null;
}

/** A task in the extension's field names (`ttlMs`, `pollIntervalMs`; render-tasks.ts answers in 2025-11-25's). */
function extensionTask({ ttl, pollInterval, ...task }: Task) {
  return { ...task, ttlMs: ttl, ...(pollInterval === undefined ? {} : { pollIntervalMs: pollInterval }) };
}

/** The answer to a tools/call made a task (CreateTaskResult), with the call's `_meta` (a payment's settlement). */
export function createTaskResult(task: Task, meta: Record<string, unknown> | undefined) {
  return { resultType: "task", ...extensionTask(task), ...(meta ? { _meta: meta } : {}) };
}

/**
 * The call's answer once its render is over: `outcome` is tasks/result's answer at 2025-11-25 (the audio, or the
 * render's failure as a tool error, which the extension reports as `completed`); a ProtocolError (the job is gone)
 * is the one `failed` task, carrying that JSON-RPC error.
 */
async function detailedTask(task: Task, outcome: () => Promise<CallToolResult>) {
  if (task.status === "working" || task.status === "cancelled") return extensionTask(task);
  try {
    return { ...extensionTask(task), status: "completed", result: { resultType: "complete", ...(await outcome()) } };
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    return { ...extensionTask(task), status: "failed", error: { code: err.code, message: err.message } };
  }
}

/**
 * tasks/get, tasks/update and tasks/cancel of the extension for `caller`, on a server answering `message`.
 * A request that does not declare the extension is refused with -32021, as the extension requires. Who may see a
 * task, and what an unknown one answers (-32602), is render-tasks.ts's rule.
 */
export function serveTasksExtension(server: McpServer, env: Env, caller: Caller, message: unknown, outcome: (taskId: string) => Promise<CallToolResult>): void {
  const declared = () => {
    if (!declaresTasks(message)) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: TASKS_EXTENSION_CAPABILITY });
  };
  const byId = { params: v.looseObject({ taskId: v.string() }) };
  server.server.setRequestHandler("tasks/get", byId, async ({ taskId }) => {
    declared();
    return detailedTask(await getRenderTask(env, caller, taskId), () => outcome(taskId));
  });
  // The render asks the client nothing, so no input is ever outstanding: responses are ignored, as the extension has it.
  server.server.setRequestHandler("tasks/update", byId, async ({ taskId }) => {
    declared();
    await getRenderTask(env, caller, taskId);
    return {};
  });
  // Cancelling is cooperative: a task already over is acknowledged and stays as it ended.
  server.server.setRequestHandler("tasks/cancel", byId, async ({ taskId }) => {
    declared();
    if ((await getRenderTask(env, caller, taskId)).status === "working") await cancelRenderTask(env, caller, taskId);
    return {};
  });
}
