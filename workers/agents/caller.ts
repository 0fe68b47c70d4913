import { clientIp } from "../core/rate-limit";
import type { OAuthGrant } from "../core/grant";

/**
 * Who calls a tool. Every surface (MCP, REST) makes one from what the route table resolved (callerOf);
 * a verified x402 payment or a Sign-In-With-X proof then turns it into a wallet caller
 * (workers/agents/call.ts). The tools read nothing else.
 */
export interface Caller {
  /** Rate-limit and attribution key: "ip:<addr>", "oauth:<client_id>" or "wallet:<0x address>". */
  agentKey: string;
  /** The listener the call acts for (an OAuth grant, or a wallet-held subscription); null when anonymous. */
  listenerId: number | null;
  /** OAuth scopes granted to the caller; empty without a token. */
  scopes: readonly string[];
  /** True when an x402 payment for this call was verified (gets bare audio, no pre-roll). */
  paid: boolean;
  /** The request the call came in (RouteInput.requestId): the render jobs it creates carry it. */
  requestId: string | null;
  /**
   * The client address as per-address budgets count it (clientIp of the request, CF-Connecting-IP): a
   * tool's work reaches no request, so the address travels with the caller, into the MCP context too
   * (mcp-server.ts McpContext). Absent for a caller made without a request: it then shares clientIp's budget
   * of requests without an address.
   */
  address?: string;
}

/** The caller of a request that carries no credential: known only by its address. */
function anonymousCaller(request: Request, requestId: string): Caller {
  const address = clientIp(request);
  return { agentKey: `ip:${address}`, listenerId: null, scopes: [], paid: false, requestId, address };
}

/**
 * The caller of a request: the OAuth client acting for the listener who granted its bearer token, or
 * anonymous without one. The route table resolved the token (auth "agent" or "bearer", oauth/bearer.ts resolveBearer):
 * an invalid, expired or revoked one never gets here, it is the 401 with
 * `WWW-Authenticate: Bearer resource_metadata=...` (RFC 9728 §5.1, RFC 6750 §3.1) on every surface.
 */
export function callerOf(grant: OAuthGrant | null, request: Request, requestId: string): Caller {
  if (!grant) return anonymousCaller(request, requestId);
  return { agentKey: `oauth:${grant.clientId}`, listenerId: grant.listenerId, scopes: grant.scopes, paid: false, requestId, address: clientIp(request) };
}

/** The caller a wallet becomes once it proved its address (x402 payment or Sign-In-With-X); `address` is checksummed. */
export function walletCaller(from: Caller, address: string, listenerId: number | null, paid: boolean): Caller {
  return { agentKey: `wallet:${address}`, listenerId, scopes: from.scopes, paid, requestId: from.requestId, address: from.address };
}

/** True for a wallet caller. */
export function isWallet(caller: Caller): boolean {
  return caller.agentKey.startsWith("wallet:");
}
