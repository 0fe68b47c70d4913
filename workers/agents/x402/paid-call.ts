import { isPaymentPayloadV2 } from "@x402/core/schemas";
import type { PaymentPayload, PaymentRequired, PaymentRequirements, ResourceInfo, SettleResponse } from "@x402/core/types";
import { OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { getAddress } from "viem";
import { errorResponse } from "../../core/errors";
import type { Tool } from "../tools";
import { type HttpOperation, httpDiscovery, mcpDiscovery } from "./discovery";
import { facilitatorFor, type Facilitator } from "./facilitator";
import { paymentRequiredResponse, readPaymentSignature, refusalResponse, withPaymentResponse } from "./http-transport";
import { paymentRequiredResult, readMcpPayment, refusalResult, type ToolResult, withSettlement } from "./mcp-transport";
import { FailedAfterSettlement, payForCall, type PaidCall, type Refusal, refuse } from "./pay";
import { eip3009 } from "./authorization";
import { type FirstAnswer, firstAnswer, payloadDigest, paymentIdOf, type PaymentIdentity } from "./payment-ids";
import { acceptedAmounts, type PaidTool, priceOf, type PriceState } from "./prices";
import { signedOffers, signedReceipt } from "./receipts";
import { mcpResource, paymentRequired, requirementFor, restResource, x402Settings } from "./requirements";

/** What a paid call is offered at: the PaymentRequired a client is shown, and the requirements a payment may match. */
interface Offer {
  /** The quote: one `exact` requirement at the price of the state now. */
  required: PaymentRequired;
  /** Requirements accepted at settlement (prices.ts acceptedAmounts: an honest earlier quote is honoured). */
  accepts: PaymentRequirements[];
}

/** The human-readable `error` of a PaymentRequired that asks for a first payment. */
const PAYMENT_REQUIRED_MESSAGE = "Payment required to access this resource";

/**
 * The offer for one call of `tool` on `resource`, priced by prices.ts for `state`. Its extensions: how to
 * find and call it (`discovery`, the surface's bazaar declaration: x402/discovery.ts), that a payment may
 * carry an idempotency identifier (payment-identifier, optional: payment-ids.ts), and the quote signed by
 * the platform (offer-receipt: receipts.ts).
 */
async function offerFor(env: object, tool: PaidTool, resource: ResourceInfo, state: PriceState, discovery: Record<string, unknown>): Promise<Offer> {
  const settings = x402Settings(env);
  const quote = requirementFor(settings, priceOf(tool, state)!);
  const extensions = {
    ...discovery,
    [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
    [OFFER_RECEIPT]: await signedOffers(env, resource.url, [quote]),
  };
  return {
    required: paymentRequired(resource, [quote], PAYMENT_REQUIRED_MESSAGE, extensions),
    accepts: acceptedAmounts(tool, state).map((amount) => requirementFor(settings, amount)),
  };
}

/**
 * How one surface carries x402 (transports-v2/http.md, transports-v2/mcp.md): the resource it sells,
 * the payment a call brought, and each answer in the surface's own form. The steps are the same on
 * every surface (paidCall); only this differs.
 */
export interface PaymentTransport<R> {
  /** The resource sold (and the one a Sign-In-With-X proof is for); asked only when a payment or proof is. */
  resource(): ResourceInfo;
  /** How a discovery service lists the resource: the bazaar extension's declaration for this surface (discovery.ts). */
  discovery(): Record<string, unknown>;
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

/**
 * The x402 HTTP transport of a REST request: 402 PAYMENT-REQUIRED, PAYMENT-SIGNATURE in, PAYMENT-RESPONSE out.
 * `operation`: the route's path pattern and input schemas, for its bazaar declaration.
 */
export function httpPayments(env: object, request: Request, description: string, operation: HttpOperation): PaymentTransport<Response> {
  return {
    resource: () => restResource(env, request, description),
    discovery: () => httpDiscovery(request, operation),
    payment: () => readPaymentSignature(request),
    required: (required) => paymentRequiredResponse(env, required),
    refused: (offered, refusal) => refusalResponse(env, offered, refusal),
    settled: withPaymentResponse,
    failedAfterSettlement: (err) => withPaymentResponse(errorResponse(err.error, env), err.settlement),
  };
}

/**
 * The x402 MCP transport of a tools/call: the PaymentRequired as an isError result, the payment in
 * `_meta["x402/payment"]`, the settlement in the result's `_meta["x402/payment-response"]`. A failure
 * after settlement throws through, for the MCP server to render as a tool error carrying the settlement.
 */
export function mcpPayments(
  tool: Pick<Tool, "name" | "title" | "description" | "input">,
  meta: Record<string, unknown> | undefined,
): PaymentTransport<ToolResult> {
  return {
    resource: () => mcpResource(tool.name, tool.title),
    discovery: () => mcpDiscovery(tool),
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
  subject: PaidCall<T>["subject"];
  admit?: PaidCall<T>["admit"];
  run: PaidCall<T>["run"];
  render: (value: T) => R | Promise<R>;
  /** The facilitator; X402_FACILITATOR_URL's when omitted. */
  facilitator?: Facilitator;
}

/** What a payment's identifier says of a call (payment-ids.ts): answered before, new (remember it), or malformed. */
type Repeat = { answer: FirstAnswer } | { remember?: PaymentIdentity } | { refusal: Refusal };

/**
 * Whether `payload` repeats a paid call to `resource` (payment-ids.ts). The payer is the authorization's
 * signer: not verified here, but the payload's digest must equal the one verified and settled the first time.
 */
async function repeatOf(env: Pick<Env, "DB">, payload: unknown, resource: string): Promise<Repeat> {
  // payForCall refuses anything that is not a version 2 EIP-3009 PaymentPayload; only those can carry an identifier.
  if (!isPaymentPayloadV2(payload)) return {};
  const signed = eip3009((payload as PaymentPayload).payload);
  if (!signed) return {};
  const identified = paymentIdOf(payload as PaymentPayload);
  if ("invalid" in identified) return { refusal: refuse("invalid_payload", identified.invalid) };
  if (identified.id === null) return {};
  const identity: PaymentIdentity = {
    payer: signed.authorization.from.toLowerCase(),
    id: identified.id,
    payloadSha256: await payloadDigest(payload as PaymentPayload),
    validBefore: BigInt(signed.authorization.validBefore),
  };
  // An expired authorization repeats nothing: its answer was forgotten at its validBefore at the latest
  // (payment-ids.ts forgetAt), and payForCall refuses it as expired.
  const answer = await firstAnswer(env, identity, resource);
  return answer ? { answer } : { remember: identity };
}

/** `settlement` with the signed receipt of the call booked as `callId` (receipts.ts), as the offer-receipt extension places it. */
async function withReceipt(
  env: object,
  settlement: SettleResponse,
  facts: { callId: number; resource: string; payer: string; settledAt: Date },
): Promise<SettleResponse> {
  const receipt = await signedReceipt(env, {
    callId: facts.callId,
    resourceUrl: facts.resource,
    // Checksummed (EIP-55) as the payment named it; the ledger keeps it in lower case.
    payer: getAddress(facts.payer),
    network: settlement.network,
    issuedAt: Math.floor(facts.settledAt.getTime() / 1000),
  });
  return { ...settlement, extensions: { ...settlement.extensions, [OFFER_RECEIPT]: receipt } };
}

/**
 * One paid call over `transport`: the offer without a payment, the offer again with the reason for a
 * refused one, else `render(value)` with its settlement and signed receipt (payForCall: verify, reserve,
 * work, settle, record). A payment whose identifier was answered before gets that answer again, uncharged;
 * one whose payer is owed a credit for the same call is answered from it, verified and never settled (credits.ts).
 * A `run` failing before settlement throws through; after it, transport.failedAfterSettlement.
 */
export async function paidCall<T, R>(transport: PaymentTransport<R>, call: PaidCallOf<T, R>): Promise<R> {
  const { env } = call;
  const resource = transport.resource();
  const offer = await offerFor(env, call.tool, resource, call.state ?? {}, transport.discovery());
  const payload = transport.payment();
  if (payload === undefined) return transport.required(offer.required);
  const repeat = await repeatOf(env, payload, resource.url);
  if ("refusal" in repeat) return transport.refused(offer.required, repeat.refusal);
  if ("answer" in repeat) {
    const { answer } = repeat;
    return transport.settled(await call.render(answer.value as T), await withReceipt(env, answer.settlement, answer));
  }
  let outcome;
  try {
    outcome = await payForCall({
      ...call,
      facilitator: call.facilitator ?? facilitatorFor(env, x402Settings(env)),
      resource,
      accepts: offer.accepts,
      payload,
      paymentId: repeat.remember,
    });
  } catch (err) {
    if (err instanceof FailedAfterSettlement) return transport.failedAfterSettlement(err);
    throw err;
  }
  if (!outcome.ok) return transport.refused(offer.required, outcome);
  const settlement = await withReceipt(env, outcome.settlement, {
    callId: outcome.callId,
    resource: resource.url,
    payer: outcome.payer,
    settledAt: outcome.settledAt,
  });
  return transport.settled(await call.render(outcome.value), settlement);
}
