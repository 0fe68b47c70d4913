import type { SettleResponse } from "@x402/core/types";
import { canonicalize } from "@x402/extensions/offer-receipt";
import { and, asc, eq, exists, gt, gte, inArray, isNull, lte, or, type SQL } from "drizzle-orm";
import { database, type Database, renderJobs, x402Calls, x402Credits } from "../../db";

/**
 * A refund in kind (issue 40 item 7). A paid call whose work fails after its payment settled (a render that
 * fails, a subscription refused) was charged for nothing, and x402 has no refund: the platform holds no key
 * to send USDC back. So the failure leaves the payer a credit for that tool, resource and arguments, kept a
 * day (CREDIT_KEPT_MS). The payer's next paid call for the same thing still brings a fresh payment, which is
 * verified (so the payer is the one who was charged) but never settled: the credit pays, once. A paid render
 * answered pending may fail after the answer: its call leaves a credit that counts only once its job failed.
 */

/** How long a credit waits for its payer to come back: a day, long enough for a retry after an outage. */
export const CREDIT_KEPT_MS = 24 * 3_600_000;

/** What a credit covers: one payer's call of one tool at one resource with the same arguments. */
export interface CreditClaim {
  /** The payer, lower-case hex (the verified payer of the new call, the settled payer of the failed one). */
  payer: string;
  tool: string;
  resource: string;
  /** subjectOf the call's arguments. */
  subject: string;
  /** The price of the new call: a credit of less does not cover it. */
  amountMicros: number;
  /** For a call answered pending: its render job, and the credit is usable only once that job failed. */
  jobId?: string;
}

/** The arguments of a call as credits compare them: canonical JSON (RFC 8785), whatever their key order. */
export function subjectOf(input: Record<string, unknown>): string {
  return canonicalize(input);
}

/** The credit a call that failed after settling leaves, for the batch that books it (ledger.ts); `callId` is its record's id. */
export function creditRow(claim: CreditClaim, callId: SQL<number>, now = Date.now()) {
  return { ...claim, payer: claim.payer.toLowerCase(), x402CallId: callId, expiresAt: new Date(now + CREDIT_KEPT_MS) };
}

/** Removes the credits past their day, in the batch that takes a reservation (reservations.ts). */
export function pruneCredits(db: Database, now = Date.now()) {
  return db.delete(x402Credits).where(lte(x402Credits.expiresAt, new Date(now)));
}

/** A credit taken for a call: its row (to give back should the call fail) and the answer's settlement. */
export interface Credit {
  row: typeof x402Credits.$inferSelect;
  /** The failed call's record: its id, settlement and time make the credited answer's receipt. */
  call: typeof x402Calls.$inferSelect;
}

/**
 * Takes one unexpired credit covering `claim`, or null. One DELETE ... RETURNING of one row: D1 runs a
 * statement alone, so of any number of concurrent calls exactly one gets a given credit.
 */
export async function takeCredit(env: Pick<Env, "DB">, claim: CreditClaim, now = Date.now()): Promise<Credit | null> {
  const db = database(env);
  const oldest = db
    .select({ id: x402Credits.id })
    .from(x402Credits)
    .where(
      and(
        eq(x402Credits.payer, claim.payer.toLowerCase()),
        eq(x402Credits.tool, claim.tool),
        eq(x402Credits.resource, claim.resource),
        eq(x402Credits.subject, claim.subject),
        gte(x402Credits.amountMicros, claim.amountMicros),
        gt(x402Credits.expiresAt, new Date(now)),
        or(
          isNull(x402Credits.jobId),
          exists(
            db
              .select({ id: renderJobs.id })
              .from(renderJobs)
              .where(and(eq(renderJobs.id, x402Credits.jobId), inArray(renderJobs.state, ["failed", "cancelled"]))),
          ),
        ),
      ),
    )
    .orderBy(asc(x402Credits.expiresAt))
    .limit(1);
  const [row] = await db.delete(x402Credits).where(inArray(x402Credits.id, oldest)).returning();
  if (!row) return null;
  const call = await db.query.x402Calls.findFirst({ where: eq(x402Calls.id, row.x402CallId) });
  if (!call) return null;
  return { row, call };
}

/**
 * Gives a taken credit back: the call it paid for failed too, or (with `jobId`) answered pending with that
 * render, so it still owes the payer should the render fail.
 */
export async function restoreCredit(env: Pick<Env, "DB">, credit: Credit, jobId?: string): Promise<void> {
  await database(env)
    .insert(x402Credits)
    .values(jobId ? { ...credit.row, jobId } : credit.row);
}

/**
 * The settlement a credited answer carries (PAYMENT-RESPONSE, `_meta["x402/payment-response"]`), in the
 * protocol's terms: a success whose `amount`, the amount actually settled (SettleResponse), is 0, naming
 * the earlier settlement that paid for it as its `transaction`; `extra.credit` says so in words.
 */
export function creditedSettlement(credit: Credit): SettleResponse {
  const { call } = credit;
  return {
    success: true,
    transaction: call.settlement,
    network: call.network as SettleResponse["network"],
    payer: call.payer,
    amount: "0",
    extra: {
      credit: {
        settled_at: call.createdAt.toISOString(),
        reason: "paid by the earlier settlement named in transaction, whose call failed after settling; this payment was verified, not settled",
      },
    },
  };
}
