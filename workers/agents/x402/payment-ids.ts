import type { PaymentPayload, SettleResponse } from "@x402/core/types";
import { canonicalize } from "@x402/extensions/offer-receipt";
import { isValidPaymentId, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
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

/**
 * The payment's identifier: null without one, a refusal reason for a malformed one. Checked by the
 * extension's own rule for an id (isValidPaymentId: 16 to 128 of A-Z, a-z, 0-9, "-" and "_"), not by
 * extractAndValidatePaymentIdentifier: that one also compiles, with Ajv, the JSON Schema the payment
 * echoes back, at run time. Workers refuse code generation from strings, so under `wrangler dev` every
 * payment made by the official client from our 402 was refused; and a schema the payer sends is not
 * ours to compile. The schema is the one we declared above, so its rule is this one.
 */
export function paymentIdOf(payload: PaymentPayload): { id: string | null } | { invalid: string } {
  const extension: unknown = payload.extensions?.[PAYMENT_IDENTIFIER];
  if (extension === undefined) return { id: null };
  const info: unknown = typeof extension === "object" && extension !== null ? (extension as { info?: unknown }).info : undefined;
  if (typeof info !== "object" || info === null) return { invalid: "payment-identifier: the extension has no info object" };
  const { id } = info as { id?: unknown };
  if (id === undefined) return { id: null };
  if (typeof id !== "string" || !isValidPaymentId(id)) return { invalid: "payment-identifier: an id is 16 to 128 characters of A-Z, a-z, 0-9, - and _" };
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
