import { errorResponse } from "../../core/errors";
import { facilitatorFor, type Facilitator } from "./facilitator";
import { paymentRequiredResponse, readPaymentSignature, refusalResponse, withPaymentResponse } from "./http-transport";
import { paymentRequiredResult, readMcpPayment, refusalResult, type ToolResult, withSettlement } from "./mcp-transport";
import { offerFor } from "./offer";
import { FailedAfterSettlement, payForCall, type PaidCall } from "./pay";
import type { PaidTool, PriceState } from "./prices";
import { mcpResource, restResource, x402Settings } from "./requirements";

/** What a surface knows of a paid call before it is paid for. */
interface PaidCallOf<T> {
  env: Env;
  tool: PaidTool;
  /** ResourceInfo.description: what the payment buys. */
  description: string;
  /** The state the price depends on now (get_audio_url: whether the audio is cached). */
  state?: PriceState;
  agentId?: string;
  listenerId?: number | null;
  settle: PaidCall<T>["settle"];
  admit?: PaidCall<T>["admit"];
  run: PaidCall<T>["run"];
  /** The facilitator; X402_FACILITATOR_URL's when omitted. */
  facilitator?: Facilitator;
}

/**
 * A paid REST operation over the x402 HTTP transport: 402 without PAYMENT-SIGNATURE, 402 with the reason
 * for a refused payment, else `render(value)` with PAYMENT-RESPONSE. A `run` failing before settlement
 * throws through; after settlement its error is the answer, with the settlement in PAYMENT-RESPONSE.
 */
export async function paidHttpCall<T>(call: PaidCallOf<T> & { request: Request; render: (value: T) => Response | Promise<Response> }): Promise<Response> {
  const { env } = call;
  const resource = restResource(env, call.request, call.description);
  const offer = offerFor(env, call.tool, resource, call.state);
  const payload = readPaymentSignature(call.request);
  if (payload === undefined) return paymentRequiredResponse(env, offer.required);
  let outcome;
  try {
    outcome = await payForCall({ ...call, facilitator: call.facilitator ?? facilitatorFor(env, x402Settings(env)), resource, accepts: offer.accepts, payload });
  } catch (err) {
    if (err instanceof FailedAfterSettlement) return withPaymentResponse(errorResponse(err.error), err.settlement);
    throw err;
  }
  if (!outcome.ok) return refusalResponse(env, offer.required, outcome);
  return withPaymentResponse(await call.render(outcome.value), outcome.settlement);
}

/**
 * A paid MCP tool over the x402 MCP transport: the PaymentRequired as an isError result without
 * `_meta["x402/payment"]` or with a refused one, else `render(value)` with the settlement in
 * `_meta["x402/payment-response"]`. A failing `run` throws through (after settlement, as a
 * FailedAfterSettlement, which the MCP server renders as a tool error carrying the settlement).
 */
export async function paidMcpCall<T>(call: PaidCallOf<T> & { meta: Record<string, unknown> | undefined; render: (value: T) => ToolResult }): Promise<ToolResult> {
  const { env } = call;
  const resource = mcpResource(call.tool, call.description);
  const offer = offerFor(env, call.tool, resource, call.state);
  const payload = readMcpPayment(call.meta);
  if (payload === undefined) return paymentRequiredResult(offer.required);
  const outcome = await payForCall({ ...call, facilitator: call.facilitator ?? facilitatorFor(env, x402Settings(env)), resource, accepts: offer.accepts, payload });
  if (!outcome.ok) return refusalResult(offer.required, outcome);
  return withSettlement(call.render(outcome.value), outcome.settlement);
}
