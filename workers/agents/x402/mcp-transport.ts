import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import type { Refusal } from "./pay";

/** `_meta` keys of the x402 MCP transport (transports-v2/mcp.md). */
export const MCP_PAYMENT_META = "x402/payment";
export const MCP_PAYMENT_RESPONSE_META = "x402/payment-response";

/** The part of an MCP CallToolResult these functions build (MCP "tools/call" result). */
export interface ToolResult {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/**
 * The PaymentPayload of a tools/call: `params._meta["x402/payment"]`, a JSON object in x402 version 2
 * (not the base64 string of the older agents/x402 form). undefined when the call carries none.
 */
export function readMcpPayment(meta: Record<string, unknown> | undefined): unknown {
  return meta?.[MCP_PAYMENT_META];
}

/**
 * A paid tool called without (valid) payment: a tool result with isError, the PaymentRequired as
 * structuredContent and as JSON in content[0].text ("Payment Required Signaling": servers MUST give both).
 * It is not a JSON-RPC error.
 */
export function paymentRequiredResult(required: PaymentRequired): ToolResult {
  return {
    isError: true,
    structuredContent: required as unknown as Record<string, unknown>,
    content: [{ type: "text", text: JSON.stringify(required) }],
  };
}

/** A refused payment: the offer again with `error` naming the reason ("Payment Invalid", "Settlement Failed"). */
export function refusalResult(offered: PaymentRequired, refusal: Refusal): ToolResult {
  return paymentRequiredResult({ ...offered, error: refusal.message });
}

/** A paid call's result with its settlement in `_meta["x402/payment-response"]`. */
export function withSettlement(result: ToolResult, settlement: SettleResponse): ToolResult {
  return { ...result, _meta: { ...result._meta, [MCP_PAYMENT_RESPONSE_META]: settlement } };
}
