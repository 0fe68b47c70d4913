import type { ToolName } from "./tools";
import { TOOLS } from "./tools";

/**
 * The x402 price table (DESIGN.md "x402"): per action by weight, each between $0.001 and $0.30,
 * in USDC atomic units (6 decimals: 1000 to 300000). The x402 layer and the manifests read it.
 */
export const PRICE_TABLE = {
  /** Audio that already exists: a lookup and a URL. */
  audio_cached: 2_000,
  /** Audio rendered on demand: text-to-speech and encoding. */
  audio_render: 20_000,
  /** A topic subscription with its private feed. */
  subscription: 50_000,
  /** The heaviest action: ranking across verticals over a window. */
  digest: 100_000,
} as const;

/** What a tool's price depends on; free tools cost nothing. */
export type PriceWeight = "free" | "audio" | "subscription" | "digest";

/**
 * The price of one call of `toolName` in USDC atomic units, as a decimal string (x402 amounts are
 * strings), or null for a free tool. `cached`: get_audio_url's audio already exists.
 */
export function priceOf(toolName: ToolName, opts: { cached?: boolean } = {}): string | null {
  const weight = TOOLS.find((t) => t.name === toolName)!.weight;
  switch (weight) {
    case "free":
      return null;
    case "audio":
      return String(opts.cached ? PRICE_TABLE.audio_cached : PRICE_TABLE.audio_render);
    default:
      return String(PRICE_TABLE[weight]);
  }
}

/** Base Sepolia, the default x402 network (DESIGN.md "x402": X402_NETWORK, CAIP-2). */
const DEFAULT_NETWORK = "eip155:84532";
/** USDC on each network the service may settle on (Circle's published contract addresses). */
const USDC: Record<string, string> = {
  "eip155:84532": "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  "eip155:8453": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
};

/**
 * Where x402 payments go, as the manifests announce it: network, asset and pay-to address from
 * X402_NETWORK and X402_PAY_TO (read here until the x402 layer checks them in core/config.ts).
 */
export function x402Terms(env: object): { network: string; asset: string | null; pay_to: string | null } {
  const vars = env as { X402_NETWORK?: string; X402_PAY_TO?: string };
  const network = vars.X402_NETWORK || DEFAULT_NETWORK;
  return { network, asset: USDC[network] ?? null, pay_to: vars.X402_PAY_TO || null };
}
