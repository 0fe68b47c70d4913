import type { PaymentRequired, PaymentRequirements, ResourceInfo } from "@x402/core/types";
import { OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { acceptedAmounts, type PaidTool, priceOf, type PriceState } from "./prices";
import { signedOffers } from "./receipts";
import { paymentRequired, requirementFor, x402Settings } from "./requirements";

/** What a paid call is offered at: the PaymentRequired a client is shown, and the requirements a payment may match. */
export interface Offer {
  /** The quote: one `exact` requirement at the price of the state now. */
  required: PaymentRequired;
  /** Requirements accepted at settlement (prices.ts acceptedAmounts: an honest earlier quote is honoured). */
  accepts: PaymentRequirements[];
}

/** The human-readable `error` of a PaymentRequired that asks for a first payment. */
export const PAYMENT_REQUIRED_MESSAGE = "Payment required to access this resource";

/**
 * The offer for one call of `tool` on `resource`, priced by prices.ts for `state`. Its extensions: how to
 * find and call it (`discovery`, the surface's bazaar declaration: x402/discovery.ts), that a payment may
 * carry an idempotency identifier (payment-identifier, optional: payment-ids.ts), and the quote signed by
 * the platform (offer-receipt: receipts.ts).
 */
export async function offerFor(env: object, tool: PaidTool, resource: ResourceInfo, state: PriceState, discovery: Record<string, unknown>): Promise<Offer> {
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
