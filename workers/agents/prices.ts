import { priceOf as quote } from "./x402/prices";
import { x402Settings } from "./x402/requirements";

/** What a tool's price depends on; free tools cost nothing. The amounts are x402/prices.ts's one table. */
export type PriceWeight = "free" | "audio" | "subscription" | "digest";

/**
 * The price of one call of `toolName` in USDC atomic units as a decimal string (x402 amounts are
 * strings), or null for a free tool. `cached`: get_audio_url's audio already exists.
 */
export function priceOf(toolName: string, opts: { cached?: boolean } = {}): string | null {
  const amount = quote(toolName, opts);
  return amount === null ? null : String(amount);
}

/** Where x402 payments go, as the manifests announce it; nulls when paid tools are not configured. */
export function x402Terms(env: object): { network: string | null; asset: string | null; pay_to: string | null } {
  try {
    const { network, asset, payTo } = x402Settings(env);
    return { network, asset: asset.address, pay_to: payTo };
  } catch {
    return { network: null, asset: null, pay_to: null };
  }
}
