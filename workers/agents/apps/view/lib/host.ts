// The view's side of MCP Apps (extension io.modelcontextprotocol/ui, specification 2026-01-26,
// "Communication Protocol"): JSON-RPC 2.0 over postMessage with the host that framed the view. The view
// opens with the ui/initialize handshake, then gets the tool's arguments and result as notifications, and
// calls tools through the host (tools/call), which forwards them to the MCP server with the user's own
// authorization: the view holds no credential. The spec notes a view needs no SDK for these few messages;
// the SDK's App class would inline about 650 kB (zod and the MCP client) into every view, so they are
// written here, typed by the SDK's own spec types, and the browser test drives them with the SDK's AppBridge.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type {
  McpUiHostContext,
  McpUiInitializedNotification,
  McpUiInitializeRequest,
  McpUiInitializeResult,
  McpUiSizeChangedNotification,
  McpUiToolInputNotification,
  McpUiToolResultNotification,
} from "@modelcontextprotocol/ext-apps";

/** The revision of the extension this view speaks (ui/initialize `protocolVersion`). */
const PROTOCOL_VERSION = "2026-01-26";

/** What the view does with what the host sends it. */
export interface ViewHandlers {
  /** The arguments the tool was called with (ui/notifications/tool-input). */
  toolInput?(args: Record<string, unknown>): void;
  /** The tool's result (ui/notifications/tool-result): the same CallToolResult the model sees. */
  toolResult(result: CallToolResult): void;
  /** The call was cancelled before it answered (ui/notifications/tool-cancelled). */
  toolCancelled?(reason: string): void;
}

/** The host, as the view sees it once connected. */
export interface Host {
  /** Calls a tool of this view's MCP server through the host (MCP tools/call). */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

interface Message {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Theme and style variables of the host (McpUiHostContext `theme`, `styles.variables`), so the view looks like the chat around it. */
function applyContext(context: McpUiHostContext | undefined): void {
  if (!context) return;
  const root = document.documentElement;
  if (context.theme) root.style.colorScheme = context.theme;
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (name.startsWith("--") && typeof value === "string") root.style.setProperty(name, value);
  }
}

/**
 * Connects to the host: ui/initialize, then ui/notifications/initialized (the host sends nothing before
 * it), then the view's size whenever it changes (ui/notifications/size-changed), so the host sizes its frame.
 */
export async function connectToHost(handlers: ViewHandlers): Promise<Host> {
  let lastId = 0;
  const waiting = new Map<number | string, { resolve(result: unknown): void; reject(error: Error): void }>();
  // The host's origin is unknown to the view (a sandbox proxy relays between them); the messages carry
  // nothing the host did not send or may not see.
  const post = (message: Message) => window.parent.postMessage(message, "*");
  const request = <R>(method: string, params: Record<string, unknown>) =>
    new Promise<R>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      post({ jsonrpc: "2.0", id, method, params });
    });
  const notify = (method: string, params: Record<string, unknown>) => post({ jsonrpc: "2.0", method, params });

  const onNotification = (method: string, params: Record<string, unknown>) => {
    if (method === ("ui/notifications/tool-input" satisfies McpUiToolInputNotification["method"]))
      handlers.toolInput?.((params.arguments as Record<string, unknown>) ?? {});
    else if (method === ("ui/notifications/tool-result" satisfies McpUiToolResultNotification["method"])) handlers.toolResult(params as CallToolResult);
    else if (method === "ui/notifications/tool-cancelled") handlers.toolCancelled?.(String(params.reason ?? "cancelled"));
    else if (method === "ui/notifications/host-context-changed") applyContext(params as McpUiHostContext);
  };
  // ping and ui/resource-teardown are the host's requests: the view keeps no state worth saving.
  const onRequest = (message: Message) => {
    const known = message.method === "ping" || message.method === "ui/resource-teardown";
    post(known ? { jsonrpc: "2.0", id: message.id, result: {} } : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  };

  window.addEventListener("message", (event: MessageEvent) => {
    if (event.source !== window.parent) return;
    const message = event.data as Message | null;
    if (message?.jsonrpc !== "2.0") return;
    if (message.method === undefined && message.id !== undefined) {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) pending?.reject(new Error(message.error.message));
      else pending?.resolve(message.result);
    } else if (message.method !== undefined && message.id !== undefined) onRequest(message);
    else if (message.method !== undefined) onNotification(message.method, message.params ?? {});
  });

  const init: McpUiInitializeRequest["params"] = {
    appInfo: { name: "narration-player", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] },
    protocolVersion: PROTOCOL_VERSION,
  };
  const initialized = await request<McpUiInitializeResult>("ui/initialize" satisfies McpUiInitializeRequest["method"], init);
  applyContext(initialized.hostContext);
  notify("ui/notifications/initialized" satisfies McpUiInitializedNotification["method"], {});
  reportSize((size) => notify("ui/notifications/size-changed" satisfies McpUiSizeChangedNotification["method"], size));
  return { callTool: (name, args) => request<CallToolResult>("tools/call", { name, arguments: args }) };
}

/** Calls `send` with the document's size now and after each change of it, once per frame at most. */
function reportSize(send: (size: { width: number; height: number }) => void): void {
  let last = "";
  let scheduled = false;
  const measure = () => {
    scheduled = false;
    const root = document.documentElement;
    const size = { width: Math.ceil(root.scrollWidth), height: Math.ceil(root.scrollHeight) };
    const key = `${size.width}x${size.height}`;
    if (key !== last) send(size);
    last = key;
  };
  new ResizeObserver(() => {
    if (!scheduled) requestAnimationFrame(measure);
    scheduled = true;
  }).observe(document.body);
  measure();
}
