import { isPaymentPayloadV2 } from "@x402/core/schemas";
import type { PaymentPayload, PaymentRequirements, ResourceInfo, SettleResponse } from "@x402/core/types";
import { deepEqual } from "@x402/core/utils";
import { getAddress, isAddress } from "viem";
import { authorizationKey, eip3009, FACILITATOR_VALID_BEFORE_MARGIN_SECONDS, secondsLeft } from "./authorization";
import { FACILITATOR_TIMEOUT_MS, type Facilitator } from "./facilitator";
import { type Credit, type CreditClaim, creditedSettlement, restoreCredit, takeCredit } from "./credits";
import { type Leg, recordSettledCall } from "./ledger";
import { FACILITATOR_REASONS } from "./local-facilitator";
import type { PaymentIdentity } from "./payment-ids";
import { release, reserve } from "./reservations";

/** Why a payment was refused. Nothing is settled or booked for any of them. */
export type RefusalReason =
  | "invalid_payload"
  | "resource_mismatch"
  | "amount_mismatch"
  | "wrong_recipient"
  | "unsupported_payment"
  | "bad_signature"
  | "expired"
  | "expires_too_soon"
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
  /** When the call was booked (its ledger row's time). */
  settledAt: Date;
  /** The paying wallet, checksummed. */
  payer: `0x${string}`;
}

/**
 * The work of a paid call failed after its payment was settled: the payer was charged (the settlement
 * says so, and the ledger booked it) and the work's error stands. The transports answer with that error
 * and the settlement beside it, so the client knows its authorization was spent.
 */
export class FailedAfterSettlement extends Error {
  constructor(
    readonly error: unknown,
    readonly settlement: SettleResponse,
  ) {
    super("a paid call failed after its payment was settled");
  }
}

/** The payer, known once the facilitator verified the payment. */
export interface Payment {
  payer: `0x${string}`;
  network: string;
}

/**
 * The longest the work run before settlement should take (PaidCall.settle "after_work"): read-only work,
 * a few D1 queries, and D1 stops a query at 30 s (D1 limits, "Maximum SQL query duration"). Work that
 * runs longer anyway finds the authorization expired at settlement and its result withheld: it was
 * read-only, so that costs nothing but the reading.
 */
const WORK_BEFORE_SETTLEMENT_SECONDS = 30;

/**
 * The least time, in seconds, an authorization must still be valid when a paid call arrives. The payer
 * chooses validBefore (EIP-3009: the transfer is void from then on), and between arrival and the
 * facilitator's settlement come a verification (at most FACILITATOR_TIMEOUT_MS), the work that runs
 * before settling, and the facilitator's own margin: 15 + 30 + 6 = 51. An authorization that expires
 * sooner could pass verification and then fail to settle after the work, which was then free, so it is
 * refused before anything happens. x402 clients sign validBefore = now + maxTimeoutSeconds (300).
 */
export const MIN_VALIDITY_SECONDS = FACILITATOR_TIMEOUT_MS / 1000 + WORK_BEFORE_SETTLEMENT_SECONDS + FACILITATOR_VALID_BEFORE_MARGIN_SECONDS;

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
  /** The payment's identifier (payment-ids.ts), under which the answer is remembered with the call's record. */
  paymentId?: PaymentIdentity;
  /**
   * What the call buys beyond its resource: its arguments as credits.ts compares them (subjectOf). A
   * "before_work" call that fails after settling leaves its payer a credit for this subject, and one that
   * finds such a credit is answered from it without settling.
   */
  subject: string;
  /**
   * When the payment is settled. "after_work": the work reads and writes nothing that lasts, so it runs
   * first and a call that fails is never charged (x402-specification-v2.md 2: verify, fulfil, settle).
   * "before_work": the work leaves something behind (a render, a subscription), so it runs only on a
   * settled payment: a payer can void an authorization after verification (spend the funds, or EIP-3009
   * cancelAuthorization), and the effect would then have been free.
   */
  settle: "after_work" | "before_work";
  /**
   * Runs once the payment is verified and its authorization taken, before anything is settled: a throw
   * refuses the call uncharged and gives the authorization back (the per-agent budget).
   */
  admit?: (payment: Payment) => Promise<void>;
  /**
   * The work, given the verified payer. A throw before settlement is a failed call: never settled, the
   * authorization given back, the error goes on up; after settlement it is a FailedAfterSettlement.
   * `publishers` are those of the articles it returned (they share the publisher leg); `listenerId` is the
   * listener the work turned out to act for (a wallet's subscription made by the call); `pendingJob` the render
   * it answered pending with, which owes the payer a credit should it fail (credits.ts).
   */
  run: (payment: Payment) => Promise<{ value: T; publishers: readonly string[]; listenerId?: number | null; pendingJob?: string | null }>;
}

/**
 * One paid call (x402-specification-v2.md 2: verify, fulfil, settle). Before any work the payment is
 * checked, verified by the facilitator, and its authorization taken for this call alone (reservations.ts);
 * the work runs before or after settlement as `settle` says; a settled call is written to the ledger with
 * its three legs in one batch. A refusal at any step is a value with its reason.
 */
export async function payForCall<T>(call: PaidCall<T>): Promise<Paid<T> | Refusal> {
  if (!isPaymentPayloadV2(call.payload)) return refuse("invalid_payload", "not an x402 version 2 PaymentPayload");
  // The schema checks `network` as a string; the type wants the CAIP-2 template literal.
  const payload = call.payload as PaymentPayload;
  if (payload.resource?.url !== call.resource.url) return refuse("resource_mismatch", `the payment is for another resource than ${call.resource.url}`);
  const requirements = call.accepts.find((r) => matches(r, payload.accepted));
  if (!requirements) return mismatch(call.accepts, payload);
  const signed = eip3009(payload.payload);
  if (!signed)
    return refuse("unsupported_payment", "this service takes an EIP-3009 transferWithAuthorization (scheme_exact_evm.md), the only method it offers");
  const left = secondsLeft(signed.authorization);
  if (left <= 0n) return refuse("expired", "the authorization's validBefore has passed");
  if (left < BigInt(MIN_VALIDITY_SECONDS)) {
    return refuse(
      "expires_too_soon",
      `the authorization is valid for ${left} more seconds; a paid call needs ${MIN_VALIDITY_SECONDS} (sign validBefore = now + maxTimeoutSeconds)`,
    );
  }

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
  const key = authorizationKey(requirements.network, requirements.asset, signed.authorization);
  if (!(await reserve(call.env, key, BigInt(signed.authorization.validBefore))))
    return refuse("replay", "this authorization was already taken by another call");

  const payment = { payer, network: requirements.network };
  const claim = { payer, tool: call.tool, resource: call.resource.url, subject: call.subject, amountMicros: Number(requirements.amount) };
  let done: Awaited<ReturnType<PaidCall<T>["run"]>> | undefined;
  let credit: Credit | null = null;
  try {
    await call.admit?.(payment);
    // Only work run after settling can fail after it, so only such a call can owe or use a credit.
    if (call.settle === "before_work") credit = await takeCredit(call.env, claim);
    if (call.settle === "after_work" || credit) done = await call.run(payment);
  } catch (err) {
    // Nothing was settled or written: the authorization may pay for another call, and the credit is still owed.
    if (credit) await restoreCredit(call.env, credit);
    await release(call.env, key);
    throw err;
  }
  if (credit && done) {
    // Paid for by the failed call's settlement: this authorization stays taken (it bought this answer) and is
    // never settled; nothing more is booked. An answer still pending keeps the credit owed should its render fail.
    if (done.pendingJob) await restoreCredit(call.env, credit, done.pendingJob);
    const settlement = creditedSettlement(credit);
    return { ok: true, value: done.value, settlement, callId: credit.call.id, legs: [], settledAt: credit.call.createdAt, payer };
  }

  // From here the authorization stays taken: a settlement may land even when its answer is lost.
  let settlement: SettleResponse;
  try {
    settlement = await call.facilitator.settle(payload, requirements);
  } catch {
    // A settle that timed out may still complete at a real facilitator (FacilitatorTimeoutError says so);
    // the call is not recorded, and its result is withheld (transports-v2/mcp.md, Settlement Failure).
    return refuse("facilitator_unavailable", "the payment could not be settled now; the result is withheld");
  }
  if (!settlement.success) return { ...refusal(settlement.errorReason, "settlement_failed"), settlement };

  const record = (publishers: readonly string[], listenerId: number | null | undefined, answer?: { value: T }, owed?: CreditClaim) =>
    recordSettledCall(call.env, {
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
      remember: call.paymentId && answer && { ...call.paymentId, result: answer.value },
      credit: owed,
    });
  if (!done) {
    // "before_work": the work runs now, on a settled payment.
    try {
      done = await call.run(payment);
    } catch (err) {
      // Paid for and delivered nothing: booked, as every settlement is, with no article (publisher "*"), and
      // owed to the payer as a credit for the same call (credits.ts), in the same batch.
      await record([], null, undefined, claim);
      throw new FailedAfterSettlement(err, settlement);
    }
  }
  // An answer whose render is still pending is owed a credit should that render fail.
  const { callId, legs, settledAt } = await record(done.publishers, done.listenerId, done, done.pendingJob ? { ...claim, jobId: done.pendingJob } : undefined);
  return { ok: true, value: done.value, settlement, callId, legs, settledAt, payer };
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
  expires_too_soon: "the authorization expires before a paid call can be settled",
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

/** A refusal for `reason`, its message for the client. */
export function refuse(reason: RefusalReason, message: string): Refusal {
  return { ok: false, reason, message: `${reason}: ${message}` };
}
