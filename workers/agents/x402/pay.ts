import { isPaymentPayloadV2 } from "@x402/core/schemas";
import type { PaymentPayload, PaymentRequirements, ResourceInfo, SettleResponse } from "@x402/core/types";
import { deepEqual } from "@x402/core/utils";
import { getAddress, isAddress } from "viem";
import type { Facilitator } from "./facilitator";
import { type Leg, recordSettledCall } from "./ledger";
import { FACILITATOR_REASONS } from "./local-facilitator";

/** Why a payment was refused. Nothing is recorded and nothing is settled for any of them. */
export type RefusalReason =
  | "invalid_payload"
  | "resource_mismatch"
  | "amount_mismatch"
  | "wrong_recipient"
  | "unsupported_payment"
  | "bad_signature"
  | "expired"
  | "not_yet_valid"
  | "replay"
  | "payment_refused"
  | "facilitator_unavailable"
  | "settlement_failed";

export interface Refusal {
  ok: false;
  reason: RefusalReason;
  /** For the client: the reason and what it means, plus the facilitator's code when it gave one. */
  message: string;
  /** The failed settlement, when the refusal came from settling (HTTP sends it as PAYMENT-RESPONSE). */
  settlement?: SettleResponse;
}

export interface Paid<T> {
  ok: true;
  value: T;
  settlement: SettleResponse;
  callId: number;
  legs: Leg[];
}

export interface PaidCall<T> {
  env: Pick<Env, "DB">;
  facilitator: Facilitator;
  tool: string;
  /** The resource sold: a payment naming another is refused. */
  resource: ResourceInfo;
  /** Requirements a payment may match (Offer.accepts). */
  accepts: PaymentRequirements[];
  /** The PaymentPayload as the transport decoded it, not yet checked. */
  payload: unknown;
  /** An agent named in the call as the recommender; otherwise the paying wallet's agent is credited. */
  agentId?: string;
  listenerId?: number | null;
  /**
   * The work, given the verified payer. A throw or a rejection is a failed call: it is never settled, and
   * the error goes on up. `publishers` are those of the articles it returned (they share the publisher leg);
   * `listenerId` is the listener the work turned out to act for (a wallet's subscription made by the call).
   */
  run: (payment: { payer: `0x${string}`; network: string }) => Promise<{ value: T; publishers: readonly string[]; listenerId?: number | null }>;
}

/**
 * One paid call (x402-specification-v2.md 4, steps "verify", "fulfil", "settle"): the payment is
 * verified before any work, the work runs, and only a call that succeeded is settled and then written
 * to the ledger with its three legs in one batch. A refusal at any step is a value with its reason.
 */
export async function payForCall<T>(call: PaidCall<T>): Promise<Paid<T> | Refusal> {
  if (!isPaymentPayloadV2(call.payload)) return refuse("invalid_payload", "not an x402 version 2 PaymentPayload");
  // The schema checks `network` as a string; the type wants the CAIP-2 template literal.
  const payload = call.payload as PaymentPayload;
  if (payload.resource?.url !== call.resource.url) return refuse("resource_mismatch", `the payment is for another resource than ${call.resource.url}`);
  const requirements = call.accepts.find((r) => matches(r, payload.accepted));
  if (!requirements) return mismatch(call.accepts, payload);

  let verified;
  try {
    verified = await call.facilitator.verify(payload, requirements);
  } catch {
    return refuse("facilitator_unavailable", "the payment could not be verified now; nothing was charged");
  }
  if (!verified.isValid) return refusal(verified.invalidReason);

  // Known once verified, so the work can use it (a wallet agent's subscribe_topic is held by its address).
  const payer = payerOf(verified.payer, payload);
  if (!payer) return refuse("invalid_payload", "the payment names no paying address");
  const { value, publishers, listenerId } = await call.run({ payer, network: requirements.network });

  let settlement: SettleResponse;
  try {
    settlement = await call.facilitator.settle(payload, requirements);
  } catch {
    // A settle that timed out may still complete at a real facilitator (FacilitatorTimeoutError says so);
    // the call is not recorded, and its result is withheld (transports-v2/mcp.md, Settlement Failure).
    return refuse("facilitator_unavailable", "the payment could not be settled now; the result is withheld");
  }
  if (!settlement.success) return { ...refusal(settlement.errorReason, "settlement_failed"), settlement };

  const { callId, legs } = await recordSettledCall(call.env, {
    tool: call.tool,
    resource: call.resource.url,
    payer,
    // The paying wallet's agent is named by its CAIP-10 account id (network + address).
    agentId: call.agentId ?? `${requirements.network}:${payer.toLowerCase()}`,
    listenerId: listenerId ?? call.listenerId ?? null,
    network: requirements.network,
    asset: requirements.asset,
    amountMicros: Number(requirements.amount),
    settlement: settlement.transaction,
    publishers,
  });
  return { ok: true, value, settlement, callId, legs };
}

/**
 * The paying wallet, EIP-55 checksummed: the facilitator's `payer`, which is optional in a VerifyResponse,
 * or else the exact EVM scheme's signer, `authorization.from`.
 */
function payerOf(named: string | undefined, payload: PaymentPayload): `0x${string}` | undefined {
  const from = String(named ?? (payload.payload.authorization as { from?: unknown } | undefined)?.from).toLowerCase();
  return isAddress(from) ? getAddress(from) : undefined;
}

/**
 * x402Version 2 matching as @x402/core's resource server does it: every field of the accepted requirement
 * equals the offered one, and the offer's `extra` (the EIP-712 domain) is contained in the accepted `extra`.
 */
function matches(offered: PaymentRequirements, accepted: PaymentRequirements): boolean {
  const { extra: offeredExtra, ...offeredCore } = offered;
  const { extra: acceptedExtra, ...acceptedCore } = accepted;
  if (!deepEqual(offeredCore, acceptedCore)) return false;
  return Object.entries(offeredExtra ?? {}).every(([k, val]) => deepEqual(val, acceptedExtra?.[k]));
}

/** Names what differs when the accepted requirement matches no offer. */
function mismatch(accepts: PaymentRequirements[], payload: PaymentPayload): Refusal {
  const accepted = payload.accepted;
  if (accepts.every((r) => r.payTo.toLowerCase() !== String(accepted.payTo).toLowerCase())) {
    return refuse("wrong_recipient", "the payment is made out to another address than this service's");
  }
  if (accepts.every((r) => r.amount !== accepted.amount)) {
    return refuse("amount_mismatch", `the payment is for ${accepted.amount}, the price is ${accepts.map((r) => r.amount).join(" or ")}`);
  }
  return refuse("unsupported_payment", "the payment's scheme, network, asset or terms match no offered requirement");
}

const BY_FACILITATOR_REASON: Record<string, RefusalReason> = {
  [FACILITATOR_REASONS.invalidPayload]: "invalid_payload",
  [FACILITATOR_REASONS.signature]: "bad_signature",
  invalid_exact_evm_failed_to_parse_signature: "bad_signature",
  [FACILITATOR_REASONS.recipient]: "wrong_recipient",
  [FACILITATOR_REASONS.expired]: "expired",
  [FACILITATOR_REASONS.notYetValid]: "not_yet_valid",
  [FACILITATOR_REASONS.value]: "amount_mismatch",
  invalid_exact_evm_authorization_value: "amount_mismatch",
  [FACILITATOR_REASONS.nonceUsed]: "replay",
  [FACILITATOR_REASONS.scheme]: "unsupported_payment",
  [FACILITATOR_REASONS.network]: "unsupported_payment",
};

const MEANING: Record<RefusalReason, string> = {
  invalid_payload: "the payment payload is malformed",
  resource_mismatch: "the payment is for another resource",
  amount_mismatch: "the authorized amount is not the price",
  wrong_recipient: "the authorization pays another address",
  unsupported_payment: "the payment's scheme, network or asset is not offered",
  bad_signature: "the authorization's signature is not the payer's",
  expired: "the authorization has expired",
  not_yet_valid: "the authorization is not valid yet",
  replay: "this authorization was already used",
  payment_refused: "the facilitator refused the payment",
  facilitator_unavailable: "the facilitator could not be reached",
  settlement_failed: "the payment could not be settled",
};

/** A refusal from a facilitator's code; `fallback` when the code is not one of ours. */
function refusal(code: string | undefined, fallback: RefusalReason = "payment_refused"): Refusal {
  const reason = (code && BY_FACILITATOR_REASON[code]) || fallback;
  return refuse(reason, code ? `${MEANING[reason]} (${code})` : MEANING[reason]);
}

function refuse(reason: RefusalReason, message: string): Refusal {
  return { ok: false, reason, message: `${reason}: ${message}` };
}
