import type { PaymentRequired, PaymentRequirements, ResourceInfo } from "@x402/core/types";
import { acceptedAmounts, type PaidTool, priceOf, type PriceState } from "./prices";
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

/** The offer for one call of `tool` on `resource`, priced by prices.ts for `state`. */
export function offerFor(env: object, tool: PaidTool, resource: ResourceInfo, state: PriceState = {}): Offer {
  const settings = x402Settings(env);
  const quote = requirementFor(settings, priceOf(tool, state)!);
  return {
    required: paymentRequired(resource, [quote], PAYMENT_REQUIRED_MESSAGE),
    accepts: acceptedAmounts(tool, state).map((amount) => requirementFor(settings, amount)),
  };
}

