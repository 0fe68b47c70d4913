import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import { LocalFacilitator } from "./local-facilitator";
import type { X402Settings } from "./requirements";

/**
 * The two facilitator calls a resource server makes (x402-specification-v2.md 7: POST /verify and
 * POST /settle). @x402/core's HTTPFacilitatorClient implements it over HTTP; LocalFacilitator on D1.
 * Either may throw (network failure, timeout, malformed answer): callers treat a throw as "unavailable".
 */
export interface Facilitator {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

/**
 * How long one facilitator request may take. The client's default (90 s) would hold an agent's call
 * far longer than a verification or an L2 settlement needs.
 */
export const FACILITATOR_TIMEOUT_MS = 15_000;

/** A real facilitator at `url`, through the official HTTP client. */
export function httpFacilitator(url: string, timeoutMs = FACILITATOR_TIMEOUT_MS): Facilitator {
  return new HTTPFacilitatorClient({ url, timeoutMs });
}

/** The facilitator X402_FACILITATOR_URL names: "local" (this machine, D1) or a facilitator's URL. */
export function facilitatorFor(env: Pick<Env, "DB">, settings: X402Settings): Facilitator {
  return settings.facilitatorUrl === "local" ? new LocalFacilitator(env.DB) : httpFacilitator(settings.facilitatorUrl);
}
