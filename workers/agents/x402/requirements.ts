import type { Network, PaymentRequired, PaymentRequirements, ResourceInfo } from "@x402/core/types";
import { getDefaultAsset } from "@x402/evm";
import { baseUrl, config } from "../../core/config";
import { ApiError } from "../../core/errors";
import { isLocalOrigin } from "../../core/local-origin";

/** x402 protocol version 2 (x402-specification-v2.md); version 1 payloads are refused. */
export const X402_VERSION = 2;

/**
 * How long a signed authorization stays valid: x402 clients sign validBefore = now + maxTimeoutSeconds.
 * Well above the 51 s a paid call needs (pay.ts MIN_VALIDITY_SECONDS), so a client whose clock lags
 * ours by minutes still pays.
 */
export const MAX_TIMEOUT_SECONDS = 300;

/** The x402 settings of this deployment: network, USDC on it, and who is paid. */
export interface X402Settings {
  network: Network;
  payTo: string;
  facilitatorUrl: string;
  /** USDC: contract address and its EIP-712 domain (name, version), which the client signs over. */
  asset: { address: string; name: string; version: string; decimals: number };
}

const settled = new WeakMap<object, X402Settings | ApiError>();

/**
 * The checked x402 settings, worked out once per isolate; 503 when no pay-to address is configured, the
 * network has no USDC, or the local facilitator would take payments from the public.
 */
export function x402Settings(env: object): X402Settings {
  let settings = settled.get(env);
  if (!settings) {
    try {
      settings = checkSettings(env);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      settings = err;
    }
    settled.set(env, settings);
  }
  if (settings instanceof ApiError) throw settings;
  return settings;
}

function checkSettings(env: object): X402Settings {
  const { BASE_URL, X402_NETWORK, X402_PAY_TO, X402_FACILITATOR_URL, TOKEN_ENCRYPTION_KEY } = config(env);
  if (!X402_PAY_TO) throw new ApiError("unavailable", "paid tools are not configured (X402_PAY_TO)");
  // Every offer and receipt is signed with a key derived from it (receipts.ts); a settled call without its receipt is not offered.
  if (!TOKEN_ENCRYPTION_KEY) throw new ApiError("unavailable", "paid tools are not configured: no TOKEN_ENCRYPTION_KEY to sign offers and receipts with");
  // The local facilitator moves no money: facing anyone but this machine, every paid call would be booked unpaid.
  if (X402_FACILITATOR_URL === "local" && !isLocalOrigin(BASE_URL)) {
    throw new ApiError(
      "unavailable",
      `paid tools are off: X402_FACILITATOR_URL is local, which moves no money, and BASE_URL ${new URL(BASE_URL).host} is not this machine; the operator must set a real facilitator`,
    );
  }
  const network = X402_NETWORK as Network;
  let usdc;
  try {
    usdc = getDefaultAsset(network, "USDC");
  } catch {
    throw new ApiError("unavailable", `paid tools are not configured: no USDC on ${network} (X402_NETWORK)`);
  }
  return {
    network,
    payTo: X402_PAY_TO,
    facilitatorUrl: X402_FACILITATOR_URL,
    asset: { address: usdc.asset, name: usdc.name, version: usdc.version, decimals: usdc.decimals },
  };
}

/**
 * The `exact` scheme requirement for `amount` USDC atomic units (scheme_exact_evm.md): EIP-3009
 * transferWithAuthorization of USDC, whose EIP-712 domain name and version travel in `extra`.
 */
export function requirementFor(settings: X402Settings, amount: number): PaymentRequirements {
  return {
    scheme: "exact",
    network: settings.network,
    asset: settings.asset.address,
    amount: String(amount),
    payTo: settings.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { name: settings.asset.name, version: settings.asset.version },
  };
}

/** The PaymentRequired object (x402-specification-v2.md 5.1) both transports carry. */
export function paymentRequired(resource: ResourceInfo, accepts: PaymentRequirements[], error: string, extensions?: Record<string, unknown>): PaymentRequired {
  return { x402Version: X402_VERSION, error, resource, accepts, ...(extensions && { extensions }) };
}

/** The resource a REST operation sells: its absolute URL under BASE_URL, without the query. */
export function restResource(env: object, request: Request, description: string): ResourceInfo {
  const path = new URL(request.url).pathname;
  return { url: `${baseUrl(env)}${path}`, description, mimeType: "application/json" };
}

/** The resource an MCP tool sells, named as the x402 MCP transport does (transports-v2/mcp.md). */
export function mcpResource(tool: string, description: string): ResourceInfo {
  return { url: `mcp://tool/${tool}`, description, mimeType: "application/json" };
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
