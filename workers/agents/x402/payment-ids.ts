import type { PaymentPayload, SettleResponse } from "@x402/core/types";
import { canonicalize } from "@x402/extensions/offer-receipt";
import { isValidPaymentId, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { and, eq, gt } from "drizzle-orm";
import { sha256Hex } from "../../core/crypto";
import { ApiError } from "../../core/errors";
import { database, x402Calls, x402PaymentIds } from "../../db";
import { decryptToken } from "../../kernel/listener-tokens";

/**
 * Idempotent payments (x402 extension "payment-identifier", specs/extensions/payment_identifier.md of
 * coinbase/x402): a payment may carry an `id`; the first call with it runs, is charged and remembers its
 * answer (in the batch of its ledger record: ledger.ts recordSettledCall), and a repeat with the same id and
 * the same payment gets that answer back without a second verification, settlement or charge. The same id
 * with another payment is 409 Conflict, as the extension's table says: an id names one payment only. An id
 * is the payer's own, names one resource, and its answer is kept, sealed, only while a retry can come.
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

/** How long an answer is kept at most: a retry of a lost answer comes within minutes (x402 clients sign for 300 s). */
const KEPT_AT_MOST_MS = 3_600_000;

/** Which remembered answer a payment could repeat: its payer's identifier, and what it must match. */
export interface PaymentIdentity {
  /** The signer of the authorization (`authorization.from`), lower-case hex: an identifier is one payer's. */
  payer: string;
  id: string;
  payloadSha256: string;
  /** The authorization's validBefore, in seconds: the answer is forgotten then (at most an hour on). */
  validBefore: bigint;
}

/** When an answer remembered now for `identity` is forgotten. */
export function forgetAt(identity: PaymentIdentity, now = Date.now()): Date {
  return new Date(Math.min(Number(identity.validBefore) * 1000, now + KEPT_AT_MOST_MS));
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
 * The answer remembered for `identity`, when the payment is the one that first carried the identifier, for
 * the resource `resource`, and a retry can still come (issue 40 item 6); null for an identifier this payer
 * has not used (or whose answer is forgotten: the payment is then an ordinary one, and a replay of a spent
 * authorization is refused as such); 409 when the identifier first came with another payment or resource.
 */
export async function firstAnswer(env: Pick<Env, "DB">, identity: PaymentIdentity, resource: string, now = Date.now()): Promise<FirstAnswer | null> {
  const [row] = await database(env)
    .select({ digest: x402PaymentIds.payloadSha256, resource: x402PaymentIds.resource, result: x402PaymentIds.result, call: x402Calls })
    .from(x402PaymentIds)
    .innerJoin(x402Calls, eq(x402Calls.id, x402PaymentIds.x402CallId))
    .where(and(eq(x402PaymentIds.payer, identity.payer), eq(x402PaymentIds.id, identity.id), gt(x402PaymentIds.expiresAt, new Date(now))));
  if (!row) return null;
  if (row.digest !== identity.payloadSha256 || row.resource !== resource) {
    throw new ApiError("conflict", `the payment identifier ${identity.id} was already used with another payment or for another resource`);
  }
  const { call } = row;
  return {
    value: JSON.parse(await decryptToken(env, row.result)),
    settlement: { success: true, transaction: call.settlement, network: call.network as SettleResponse["network"], payer: call.payer },
    callId: call.id,
    resource: call.resource,
    payer: call.payer,
    settledAt: call.createdAt,
  };
}
