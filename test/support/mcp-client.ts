import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";
import { env, exports } from "cloudflare:workers";
import * as v from "valibot";
import { testVars } from "../vars";
import { tokensFor } from "./oauth-agent";

/**
 * An official MCP SDK client connected to /mcp/v1 of the Worker under test: its transport's fetch
 * calls the Worker directly, so no network is involved. `modern`: negotiate the 2026-07-28
 * revision; otherwise the 2025-11-25 initialize handshake. `path`: the endpoint (/mcp answers as /mcp/v1).
 */
export async function mcpClient(opts: { modern?: boolean; ip?: string; headers?: Record<string, string>; path?: string } = {}): Promise<Client> {
  const { modern = false, path = "/mcp/v1" } = opts;
  const transport = new StreamableHTTPClientTransport(new URL(path, testVars.BASE_URL), { fetch: workerFetch(opts) });
  const client = new Client({ name: "narration-tests", version: "1.0.0" }, modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(transport);
  return client;
}

/** The Worker's fetch, as from address `ip` (the caller without a token is known by it) with `headers` added. */
function workerFetch({ ip = "203.0.113.7", headers = {} }: { ip?: string; headers?: Record<string, string> }) {
  return (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const sent = new Headers(request.headers);
    sent.set("cf-connecting-ip", ip);
    for (const [k, val] of Object.entries(headers)) sent.set(k, val);
    return exports.default.fetch(new Request(request, { headers: sent }));
  };
}

/** The JSON-RPC response in an answer to a POST, sent as JSON or as the one message of an SSE stream. */
async function jsonRpcResponse(response: Response): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.includes("text/event-stream")) return JSON.parse(text);
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)));
  return data.find((message) => "result" in message || "error" in message);
}

/**
 * The official Tasks requester (@modelcontextprotocol/ext-tasks) over a client connected at 2026-07-28, as
 * from `ip` with `headers`. The package leaves the extension's requests (tools/call, tasks/*) to its host
 * (`rawDispatch`), because the SDK client 2.4 refuses a `resultType: "task"` answer: that POST is written here,
 * with the revision's standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name: the tool name or taskId).
 */
export async function taskSession(opts: { ip?: string; headers?: Record<string, string> } = {}) {
  const client = await mcpClient({ ...opts, modern: true });
  const fetchWorker = workerFetch(opts);
  let id = 0;
  const rawDispatch: RawClientDispatch = async (request, options) => {
    const { method, params } = request as { method: string; params: { name?: string; taskId?: string } };
    const headers = new Headers({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
    });
    const name = params.name ?? params.taskId;
    if (name !== undefined) headers.set("mcp-name", name);
    for (const [k, val] of Object.entries(options?.context?.headers ?? {})) headers.set(k, val);
    const body = JSON.stringify({ jsonrpc: "2.0", id: ++id, ...(request as object) });
    const answer = await jsonRpcResponse(await fetchWorker(new URL("/mcp/v1", testVars.BASE_URL), { method: "POST", headers, body }));
    return answer.error
      ? { kind: "error", error: answer.error as { code: number; message: string } }
      : { kind: "result", result: answer.result as Record<string, never> };
  };
  const session = createTaskSessionFromClient(client, {
    endpointId: "narration-test",
    rawDispatch,
    v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo: { name: "narration-tests", version: "1.0.0" }, clientCapabilities: {} },
  });
  return { client, session, rawDispatch };
}

/** A task (MCP 2025-11-25 "Tasks"), as tasks/get answers it and tools/call's `task` carries it. */
export const TaskSchema = v.object({
  taskId: v.string(),
  status: v.picklist(["working", "input_required", "completed", "failed", "cancelled"]),
  statusMessage: v.optional(v.string()),
  createdAt: v.string(),
  lastUpdatedAt: v.string(),
  ttl: v.nullable(v.number()),
  pollInterval: v.optional(v.number()),
});

/** What tasks/result answers for a tools/call task: the tool's result. */
const TaskToolResult = v.looseObject({
  isError: v.optional(v.boolean()),
  structuredContent: v.optional(v.record(v.string(), v.unknown())),
  _meta: v.optional(v.record(v.string(), v.unknown())),
});

/** tools/call of get_audio_url made a task (`task` in params, "Creating Tasks"); `meta` goes in params._meta. */
export function audioAsTask(client: Client, slug: string, meta?: Record<string, unknown>) {
  const params = { name: "get_audio_url", arguments: { slug }, task: { ttl: 600_000 }, ...(meta ? { _meta: meta } : {}) };
  const Answer = v.looseObject({
    task: v.optional(TaskSchema),
    isError: v.optional(v.boolean()),
    structuredContent: v.optional(v.unknown()),
    _meta: v.optional(v.record(v.string(), v.unknown())),
  });
  return client.request({ method: "tools/call", params }, Answer);
}

export const getTask = (client: Client, taskId: string) => client.request({ method: "tasks/get", params: { taskId } }, TaskSchema);
export const taskResult = (client: Client, taskId: string) => client.request({ method: "tasks/result", params: { taskId } }, TaskToolResult);

/** A client with a token holding articles:read, for a listener on the plus plan (bare audio, no pre-roll). */
export async function readerClient(email: string): Promise<Client> {
  return mcpClient({ headers: await readerHeaders(email) });
}

/** The headers of a token holding articles:read, for a listener on the plus plan (bare audio, no pre-roll). */
export async function readerHeaders(email: string): Promise<Record<string, string>> {
  const { tokens, listener } = await tokensFor(email, "articles:read");
  await env.DB.prepare("update listeners set plan = 'plus' where email = ?").bind(listener.email).run();
  return { Authorization: `Bearer ${tokens.access_token}` };
}
