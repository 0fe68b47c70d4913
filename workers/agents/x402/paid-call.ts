import type { PaymentRequired, ResourceInfo, SettleResponse } from "@x402/core/types";
import { errorResponse } from "../../core/errors";
import { facilitatorFor, type Facilitator } from "./facilitator";
import { paymentRequiredResponse, readPaymentSignature, refusalResponse, withPaymentResponse } from "./http-transport";
import { paymentRequiredResult, readMcpPayment, refusalResult, type ToolResult, withSettlement } from "./mcp-transport";
import { offerFor } from "./offer";
import { FailedAfterSettlement, payForCall, type PaidCall, type Refusal } from "./pay";
import type { PaidTool, PriceState } from "./prices";
import { mcpResource, restResource, x402Settings } from "./requirements";

/**
 * How one surface carries x402 (transports-v2/http.md, transports-v2/mcp.md): the resource it sells,
 * the payment a call brought, and each answer in the surface's own form. The steps are the same on
 * every surface (paidCall); only this differs.
 */
export interface PaymentTransport<R> {
  /** The resource sold (and the one a Sign-In-With-X proof is for); asked only when a payment or proof is. */
  resource(): ResourceInfo;
  /** The PaymentPayload as carried, not yet checked; undefined when the call brought none. */
  payment(): unknown;
  /** Asks for a payment (or a Sign-In-With-X proof): the PaymentRequired in the surface's form. */
  required(required: PaymentRequired): R;
  /** A refused payment: the offer again, naming why. */
  refused(offered: PaymentRequired, refusal: Refusal): R;
  /** A paid answer with its settlement. */
  settled(answer: R, settlement: SettleResponse): R;
  /** The work failed after the payment settled: the error with the settlement beside it, or a throw for the surface to render so. */
  failedAfterSettlement(err: FailedAfterSettlement): R;
}

/** The x402 HTTP transport of a REST request: 402 PAYMENT-REQUIRED, PAYMENT-SIGNATURE in, PAYMENT-RESPONSE out. */
export function httpPayments(env: object, request: Request, description: string): PaymentTransport<Response> {
  return {
    resource: () => restResource(env, request, description),
    payment: () => readPaymentSignature(request),
    required: (required) => paymentRequiredResponse(env, required),
    refused: (offered, refusal) => refusalResponse(env, offered, refusal),
    settled: withPaymentResponse,
    failedAfterSettlement: (err) => withPaymentResponse(errorResponse(err.error), err.settlement),
  };
}

/**
 * The x402 MCP transport of a tools/call: the PaymentRequired as an isError result, the payment in
 * `_meta["x402/payment"]`, the settlement in the result's `_meta["x402/payment-response"]`. A failure
 * after settlement throws through, for the MCP server to render as a tool error carrying the settlement.
 */
export function mcpPayments(tool: string, description: string, meta: Record<string, unknown> | undefined): PaymentTransport<ToolResult> {
  return {
    resource: () => mcpResource(tool, description),
    payment: () => readMcpPayment(meta),
    required: paymentRequiredResult,
    refused: refusalResult,
    settled: withSettlement,
    failedAfterSettlement: (err) => {
      throw err;
    },
  };
}

/** What a surface knows of a paid call before it is paid for. */
export interface PaidCallOf<T, R> {
  env: Env;
  tool: PaidTool;
  /** The state the price depends on now (get_audio_url: whether the audio is cached). */
  state?: PriceState;
  agentId?: string;
  listenerId?: number | null;
  settle: PaidCall<T>["settle"];
  admit?: PaidCall<T>["admit"];
  run: PaidCall<T>["run"];
  render: (value: T) => R | Promise<R>;
  /** The facilitator; X402_FACILITATOR_URL's when omitted. */
  facilitator?: Facilitator;
}

/**
 * One paid call over `transport`: the offer without a payment, the offer again with the reason for a
 * refused one, else `render(value)` with its settlement (payForCall: verify, reserve, work, settle,
 * record). A `run` failing before settlement throws through; after it, transport.failedAfterSettlement.
 */
export async function paidCall<T, R>(transport: PaymentTransport<R>, call: PaidCallOf<T, R>): Promise<R> {
  const { env } = call;
  const resource = transport.resource();
  const offer = offerFor(env, call.tool, resource, call.state);
  const payload = transport.payment();
  if (payload === undefined) return transport.required(offer.required);
  let outcome;
  try {
    outcome = await payForCall({ ...call, facilitator: call.facilitator ?? facilitatorFor(env, x402Settings(env)), resource, accepts: offer.accepts, payload });
  } catch (err) {
    if (err instanceof FailedAfterSettlement) return transport.failedAfterSettlement(err);
    throw err;
  }
  if (!outcome.ok) return transport.refused(offer.required, outcome);
  return transport.settled(await call.render(outcome.value), outcome.settlement);
}

/** A paid REST operation (paidCall over httpPayments); `description` is what the payment buys. */
export function paidHttpCall<T>(call: PaidCallOf<T, Response> & { request: Request; description: string }): Promise<Response> {
  return paidCall(httpPayments(call.env, call.request, call.description), call);
}

/** A paid MCP tool (paidCall over mcpPayments); `description` is what the payment buys. */
export function paidMcpCall<T>(call: PaidCallOf<T, ToolResult> & { meta: Record<string, unknown> | undefined; description: string }): Promise<ToolResult> {
  return paidCall(mcpPayments(call.tool, call.description, call.meta), call);
}
