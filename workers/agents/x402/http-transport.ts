import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader, PAYMENT_REQUIRED_CACHE_CONTROL } from "@x402/core/http";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { protectedResourceMetadataUrl } from "../../oauth/server";
import type { Refusal } from "./pay";

/** The x402 HTTP transport's headers (transports-v2/http.md, Header Summary). */
const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_SIGNATURE_HEADER = "PAYMENT-SIGNATURE";
export const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";

/**
 * The PaymentPayload a request carries in PAYMENT-SIGNATURE: undefined without the header, null when the
 * header is not base64 JSON (payForCall then refuses it as invalid_payload).
 */
export function readPaymentSignature(request: Request): unknown {
  const header = request.headers.get(PAYMENT_SIGNATURE_HEADER);
  if (header === null) return undefined;
  try {
    return decodePaymentSignatureHeader(header.trim());
  } catch {
    return null;
  }
}

/**
 * 402 with the PaymentRequired in PAYMENT-REQUIRED (base64, transports-v2/http.md) and, for clients that
 * cannot read headers, as the JSON body. WWW-Authenticate points OAuth clients at the protected-resource
 * metadata (RFC 9728 section 5.1), since a bearer token with the tool's scope is the other way in
 * (docs/agents/payments.md "Paying agents"). A failed settlement also travels as PAYMENT-RESPONSE.
 */
export function paymentRequiredResponse(env: object, required: PaymentRequired, settlement?: SettleResponse): Response {
  const headers = new Headers({
    [PAYMENT_REQUIRED_HEADER]: encodePaymentRequiredHeader(required),
    "WWW-Authenticate": `Bearer resource_metadata="${protectedResourceMetadataUrl(env)}"`,
    "Cache-Control": PAYMENT_REQUIRED_CACHE_CONTROL,
  });
  if (settlement) headers.set(PAYMENT_RESPONSE_HEADER, encodePaymentResponseHeader(settlement));
  return Response.json(required, { status: 402, headers });
}

/** The 402 for a refused payment: the offer again, its `error` naming the reason. */
export function refusalResponse(env: object, offered: PaymentRequired, refusal: Refusal): Response {
  return paymentRequiredResponse(env, { ...offered, error: refusal.message }, refusal.settlement);
}

/** `response` with the settlement in PAYMENT-RESPONSE (base64 SettlementResponse). */
export function withPaymentResponse(response: Response, settlement: SettleResponse): Response {
  const out = new Response(response.body, response);
  out.headers.set(PAYMENT_RESPONSE_HEADER, encodePaymentResponseHeader(settlement));
  return out;
}
