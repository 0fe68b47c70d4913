import { clientIp } from "../core/rate-limit";

/**
 * Who calls a tool. Every surface (MCP, REST) resolves one before running a tool; the OAuth and
 * x402 layers will fill the fields an anonymous caller leaves empty, and the tools read nothing else.
 */
export interface Caller {
  /** Rate-limit and attribution key: "ip:<addr>" now; "oauth:<client_id>" or "wallet:<0x address>" later. */
  agentKey: string;
  /** The listener the call acts for (an OAuth grant, or a wallet-held subscription); null when anonymous. */
  listenerId: number | null;
  /** OAuth scopes granted to the caller; empty without a token. */
  scopes: readonly string[];
  /** True when an x402 payment for this call was verified (gets bare audio, no pre-roll). */
  paid: boolean;
}

/** The caller of a request that carries no credential: known only by its address. */
export function anonymousCaller(request: Request): Caller {
  return { agentKey: `ip:${clientIp(request)}`, listenerId: null, scopes: [], paid: false };
}
