import type { PaymentPayload, SettleResponse } from "@x402/core/types";
import { canonicalize } from "@x402/extensions/offer-receipt";
import { extractAndValidatePaymentIdentifier } from "@x402/extensions/payment-identifier";
import { eq } from "drizzle-orm";
import { sha256Hex } from "../../core/crypto";
import { ApiError } from "../../core/errors";
import { database, x402Calls, x402PaymentIds } from "../../db";

/**
 * Idempotent payments (x402 extension "payment-identifier", specs/extensions/payment_identifier.md of
 * coinbase/x402): a payment may carry an `id`; the first call with it runs, is charged and remembers its
 * answer (in the batch of its ledger record: ledger.ts recordSettledCall), and a repeat with the same id and
 * the same payment gets that answer back without a second verification, settlement or charge. The same id
 * with another payment is 409 Conflict, as the extension's table says: an id names one payment only.
 */

/** The payment's identifier: null without one, a refusal reason for a malformed one. */
export function paymentIdOf(payload: PaymentPayload): { id: string | null } | { invalid: string } {
  const { id, validation } = extractAndValidatePaymentIdentifier(payload);
  if (!validation.valid) return { invalid: (validation.errors ?? []).join("; ") || "malformed payment-identifier" };
  return { id };
}

/** SHA-256 of the payment as JCS-canonical JSON (RFC 8785): "the same payload" whatever the key order. */
export function payloadDigest(payload: PaymentPayload): Promise<string> {
  return sha256Hex(canonicalize(payload));
}

/** A paid call's first answer, as a repeat of its payment gets it. */
export interface FirstAnswer {
  value: unknown;
  settlement: SettleResponse;
  callId: number;
  /** The call's ledger record, for its receipt. */
  resource: string;
  payer: string;
  settledAt: Date;
}

/**
 * The answer remembered under `id`, when the payment `digest` is the one that first carried it; null for
 * a new id; 409 when the id first came with another payment.
 */
export async function firstAnswer(env: Pick<Env, "DB">, id: string, digest: string): Promise<FirstAnswer | null> {
  const [row] = await database(env)
    .select({ digest: x402PaymentIds.payloadSha256, result: x402PaymentIds.result, call: x402Calls })
    .from(x402PaymentIds)
    .innerJoin(x402Calls, eq(x402Calls.id, x402PaymentIds.x402CallId))
    .where(eq(x402PaymentIds.id, id));
  if (!row) return null;
  if (row.digest !== digest) throw new ApiError("conflict", `the payment identifier ${id} was already used with another payment`);
  const { call } = row;
  return {
    value: JSON.parse(row.result),
    settlement: { success: true, transaction: call.settlement, network: call.network as SettleResponse["network"], payer: call.payer },
    callId: call.id,
    resource: call.resource,
    payer: call.payer,
    settledAt: call.createdAt,
  };
}
