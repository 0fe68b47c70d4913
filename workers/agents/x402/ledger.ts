import { and, eq, lte, sql } from "drizzle-orm";
import { database, type LEDGER_PARTIES, ledgerEntries, x402Calls, x402Credits, x402PaymentIds } from "../../db";
import { splitPlay } from "../../kernel/ledger-split";
import { encryptToken } from "../../kernel/listener-tokens";
import { type CreditClaim, creditRow } from "./credits";
import { forgetAt, type PaymentIdentity } from "./payment-ids";

type Party = (typeof LEDGER_PARTIES)[number];

/** The publisher named on a leg that belongs to no single publisher (several, or none, in the call). */
export const NO_SINGLE_PUBLISHER = "*";

/** A settled paid call, as the ledger records it. */
export interface SettledCall {
  tool: string;
  resource: string;
  payer: string;
  /** Credited with the recommender leg (docs/rules.md 2): the agent named in the call, or the paying wallet's agent. */
  agentId: string;
  listenerId: number | null;
  network: string;
  asset: string;
  /** USDC atomic units: 6 decimals, so one unit is one micro-dollar. */
  amountMicros: number;
  /** The facilitator's settlement reference (transaction hash, or "local:<id>"). */
  settlement: string;
  /** Publishers of the articles the call returned, in order; may repeat or be empty. */
  publishers: readonly string[];
  /** The payment's identifier and the answer a repeat of it gets (payment-ids.ts), when it carried one. */
  remember?: PaymentIdentity & { result: unknown };
  /** The credit owed for a call that failed after settling (credits.ts), when it did. */
  credit?: CreditClaim;
}

export interface Leg {
  party: Party;
  publisher: string;
  amountMicros: number;
}

/**
 * The legs of a paid call: 70 / 20 / 10 as for plays (workers/kernel/ledger-split.ts, remainder to the
 * publisher share), then the publisher share divided evenly among the distinct publishers of the returned
 * articles, the division's remainder to the first of them. With no article the publisher share is booked
 * once under NO_SINGLE_PUBLISHER.
 */
export function callLegs(amountMicros: number, publishers: readonly string[]): Leg[] {
  const split = splitPlay(amountMicros);
  const distinct = [...new Set(publishers)];
  const owners = distinct.length > 0 ? distinct : [NO_SINGLE_PUBLISHER];
  const each = Math.floor(split.publisher / owners.length);
  const first = split.publisher - each * (owners.length - 1);
  const named = distinct.length === 1 ? distinct[0] : NO_SINGLE_PUBLISHER;
  return [
    ...owners.map((publisher, i): Leg => ({ party: "publisher", publisher, amountMicros: i === 0 ? first : each })),
    { party: "agent_recommender", publisher: named, amountMicros: split.agent_recommender },
    { party: "platform", publisher: named, amountMicros: split.platform },
  ];
}

/**
 * Writes the call's record and its legs in ONE D1 batch (one transaction: docs/agents/payments.md "Paying agents", each settled
 * payment writes its legs with the call's record), source `x402:<tool>`. The unique index on (network,
 * settlement) refuses to record one settlement twice, which rolls the whole batch back. A call that carried a
 * payment identifier remembers its answer in the same batch, so an answer is remembered exactly when it was booked;
 * when two first calls raced with one identifier, the second is still booked (its payment settled) and the
 * first answer stays the one remembered. Answers past their time are pruned in the same batch. A call that failed
 * after settling leaves its credit (credits.ts) in the same batch too: booked and owed, or neither.
 */
export async function recordSettledCall(env: Pick<Env, "DB">, call: SettledCall): Promise<{ callId: number; legs: Leg[]; settledAt: Date }> {
  const db = database(env);
  const legs = callLegs(call.amountMicros, call.publishers);
  const callId = sql<number>`(select ${x402Calls.id} from ${x402Calls} where ${and(eq(x402Calls.network, call.network), eq(x402Calls.settlement, call.settlement))})`;
  const [[row]] = await db.batch([
    db
      .insert(x402Calls)
      .values({
        tool: call.tool,
        resource: call.resource,
        payer: call.payer.toLowerCase(),
        agentId: call.agentId,
        listenerId: call.listenerId,
        network: call.network,
        asset: call.asset.toLowerCase(),
        amountMicros: call.amountMicros,
        settlement: call.settlement,
      })
      .returning({ id: x402Calls.id, createdAt: x402Calls.createdAt }),
    ...legs.map((leg) =>
      db.insert(ledgerEntries).values({
        x402CallId: callId,
        listenerId: call.listenerId,
        publisher: leg.publisher,
        party: leg.party,
        source: `x402:${call.tool}`,
        amountMicros: leg.amountMicros,
      }),
    ),
    ...(call.remember
      ? [
          db.delete(x402PaymentIds).where(lte(x402PaymentIds.expiresAt, new Date(Date.now()))),
          db
            .insert(x402PaymentIds)
            .values({
              payer: call.remember.payer,
              id: call.remember.id,
              resource: call.resource,
              payloadSha256: call.remember.payloadSha256,
              x402CallId: callId,
              result: await encryptToken(env, JSON.stringify(call.remember.result)),
              expiresAt: forgetAt(call.remember),
            })
            .onConflictDoNothing(),
        ]
      : []),
    ...(call.credit ? [db.insert(x402Credits).values(creditRow(call.credit, callId))] : []),
  ]);
  return { callId: row.id, legs, settledAt: row.createdAt };
}
