import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
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
  const { modern = false, ip = "203.0.113.7", headers = {}, path = "/mcp/v1" } = opts;
  const fetchWorker = (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const sent = new Headers(request.headers);
    sent.set("cf-connecting-ip", ip);
    for (const [k, val] of Object.entries(headers)) sent.set(k, val);
    return exports.default.fetch(new Request(request, { headers: sent }));
  };
  const transport = new StreamableHTTPClientTransport(new URL(path, testVars.BASE_URL), { fetch: fetchWorker });
  const client = new Client(
    { name: "narration-tests", version: "1.0.0" },
    modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(transport);
  return client;
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
  const Answer = v.looseObject({ task: v.optional(TaskSchema), isError: v.optional(v.boolean()), structuredContent: v.optional(v.unknown()), _meta: v.optional(v.record(v.string(), v.unknown())) });
  return client.request({ method: "tools/call", params }, Answer);
}

export const getTask = (client: Client, taskId: string) => client.request({ method: "tasks/get", params: { taskId } }, TaskSchema);
export const taskResult = (client: Client, taskId: string) => client.request({ method: "tasks/result", params: { taskId } }, TaskToolResult);

/** A client with a token holding articles:read, for a listener on the plus plan (bare audio, no pre-roll). */
export async function readerClient(email: string): Promise<Client> {
  const { tokens, listener } = await tokensFor(email, "articles:read");
  await env.DB.prepare("update listeners set plan = 'plus' where email = ?").bind(listener.email).run();
  return mcpClient({ headers: { Authorization: `Bearer ${tokens.access_token}` } });
}
