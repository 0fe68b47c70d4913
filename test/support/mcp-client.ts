import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { exports } from "cloudflare:workers";
import { testVars } from "../vars";

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
