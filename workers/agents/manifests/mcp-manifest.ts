import { baseUrl, webUrl } from "../../core/config";
import { inputJsonSchema } from "../json-schema";
import { SCOPE_NAMES } from "../../oauth/scopes";
import { protectedResourceMetadataUrl } from "../../oauth/server";
import { TOOLS } from "../tools";
import { cachedPriceOf, isPaidTool, priceOf } from "../x402/prices";
import { x402Terms } from "../x402/requirements";

/** The manifest version docs/rules.md 9 names. */
export const MANIFEST_VERSION = "2026-01";

/** A paid tool's price in USDC atomic units; get_audio_url also names its lower price for audio already rendered. */
export function priceEntry(tool: (typeof TOOLS)[number]) {
  const amount = priceOf(tool.name);
  if (amount === null) return {};
  const cached = cachedPriceOf(tool.name);
  return { price: { currency: "USDC", decimals: 6, amount: String(amount), ...(cached === null ? {} : { amount_when_cached: String(cached) }) } };
}

/** "paid" when the tool has a price (x402/prices.ts), else "free". */
export function tierOf(tool: { name: string }): "free" | "paid" {
  return isPaidTool(tool.name) ? "paid" : "free";
}

/** GET /.well-known/mcp.json (docs/agents/tools.md "Agents"): where the MCP server is, how to pay or sign in, the six tools. */
export function mcpManifest(env: object) {
  const x402 = x402Terms(env);
  return {
    version: MANIFEST_VERSION,
    name: "narration",
    description: "Articles read aloud: search the archive, read articles, get narrated audio, subscribe to topic podcasts.",
    endpoint: `${baseUrl(env)}/mcp/v1`,
    transport: "streamable-http",
    authentication: {
      anonymous: "Free tools run without credentials (per-IP limits).",
      oauth2: {
        authorization_server: `${webUrl(env)}/.well-known/oauth-authorization-server`,
        protected_resource: protectedResourceMetadataUrl(env),
        scopes: SCOPE_NAMES,
      },
      x402: { version: 2, scheme: "exact", network: x402.network, asset: x402.asset, pay_to: x402.pay_to },
    },
    tools: TOOLS.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: inputJsonSchema(tool.input),
      tier: tierOf(tool),
      ...priceEntry(tool),
    })),
  };
}
