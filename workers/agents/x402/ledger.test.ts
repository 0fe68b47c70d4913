import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database, ledgerEntries, x402Calls, x402Credits, x402PaymentIds } from "../../db";
import { decryptToken } from "../../kernel/listener-tokens";
import { callLegs, NO_SINGLE_PUBLISHER, recordSettledCall, type SettledCall } from "./ledger";

/** How a paid call is booked (docs/agents/payments.md "Paying agents"): its legs, and one batch for all it writes. */

const PAYER = "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01";

function settled(over: Partial<SettledCall> = {}): SettledCall {
  return {
    tool: "search_articles",
    resource: "https://api.test/mcp/v1#search_articles",
    payer: PAYER,
    agentId: "agent-7",
    listenerId: null,
    network: "eip155:84532",
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    amountMicros: 1000,
    settlement: `0x${"ab".repeat(32)}`,
    publishers: ["Rheinpost"],
    ...over,
  };
}

describe("callLegs", () => {
  it("one publisher: 70 / 20 / 10, every leg in its name", () => {
    expect(callLegs(1000, ["Rheinpost"])).toEqual([
      { party: "publisher", publisher: "Rheinpost", amountMicros: 700 },
      { party: "agent_recommender", publisher: "Rheinpost", amountMicros: 200 },
      { party: "platform", publisher: "Rheinpost", amountMicros: 100 },
    ]);
  });

  it("several publishers share the publisher leg evenly, once each, the remainder to the first; the rest is no single one's", () => {
    expect(callLegs(1001, ["B", "A", "B", "C"])).toEqual([
      { party: "publisher", publisher: "B", amountMicros: 235 },
      { party: "publisher", publisher: "A", amountMicros: 233 },
      { party: "publisher", publisher: "C", amountMicros: 233 },
      { party: "agent_recommender", publisher: NO_SINGLE_PUBLISHER, amountMicros: 200 },
      { party: "platform", publisher: NO_SINGLE_PUBLISHER, amountMicros: 100 },
    ]);
    expect(NO_SINGLE_PUBLISHER).toBe("*");
  });

  it("no article: the publisher leg is booked once under no single publisher, and the legs sum to the price", () => {
    const legs = callLegs(999, []);
    expect(legs).toEqual([
      { party: "publisher", publisher: "*", amountMicros: 701 },
      { party: "agent_recommender", publisher: "*", amountMicros: 199 },
      { party: "platform", publisher: "*", amountMicros: 99 },
    ]);
    expect(legs.reduce((sum, leg) => sum + leg.amountMicros, 0)).toBe(999);
  });
});

describe("recordSettledCall", () => {
  it("writes the call, payer and asset in lower case, and its legs under x402:<tool>", async () => {
    const db = database(env);
    const before = Date.now();
    const { callId, legs, settledAt } = await recordSettledCall(env, settled({ publishers: ["Rheinpost", "Le Matin"] }));
    const [row] = await db.select().from(x402Calls).where(eq(x402Calls.id, callId));
    expect(row).toMatchObject({
      tool: "search_articles",
      payer: PAYER.toLowerCase(),
      asset: "0x036cbd53842c5426634e7929541ec2318f3dcf7e",
      agentId: "agent-7",
      amountMicros: 1000,
      network: "eip155:84532",
    });
    expect(settledAt).toEqual(row.createdAt);
    expect(settledAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    const booked = await db.select().from(ledgerEntries).where(eq(ledgerEntries.x402CallId, callId));
    expect(booked.map(({ party, publisher, amountMicros, source }) => ({ party, publisher, amountMicros, source }))).toEqual(
      legs.map((leg) => ({ ...leg, source: "x402:search_articles" })),
    );
  });

  it("books one settlement once: a second record of it writes nothing, legs included; another network's is its own", async () => {
    const db = database(env);
    await recordSettledCall(env, settled());
    await expect(recordSettledCall(env, settled({ tool: "get_audio_url" }))).rejects.toThrow();
    expect(await db.select().from(x402Calls)).toHaveLength(1);
    expect(await db.select().from(ledgerEntries)).toHaveLength(3);
    await recordSettledCall(env, settled({ network: "eip155:8453" }));
    expect(await db.select().from(ledgerEntries)).toHaveLength(6);
  });

  it("remembers a payment identifier's answer, encrypted, until its time, keeps the first of two, and prunes the past ones", async () => {
    const db = database(env);
    const validBefore = BigInt(Math.floor(Date.now() / 1000) + 600);
    const identity = { payer: PAYER.toLowerCase(), id: "pay-id-1", payloadSha256: "f".repeat(64), validBefore };
    const earlier = await recordSettledCall(env, settled({ settlement: `0x${"ef".repeat(32)}` }));
    await db.insert(x402PaymentIds).values({
      payer: identity.payer,
      id: "stale",
      resource: "r",
      payloadSha256: "0".repeat(64),
      x402CallId: earlier.callId,
      result: "",
      expiresAt: new Date(Date.now() - 1),
    });
    const { callId } = await recordSettledCall(env, settled({ remember: { ...identity, result: { articles: ["first"] } } }));
    const [kept] = await db.select().from(x402PaymentIds);
    expect(kept).toMatchObject({ id: "pay-id-1", x402CallId: callId, resource: settled().resource, payloadSha256: "f".repeat(64) });
    expect(kept.expiresAt.getTime()).toBe(Number(validBefore) * 1000);
    expect(kept.result).not.toContain("first");
    expect(JSON.parse(await decryptToken(env, kept.result))).toEqual({ articles: ["first"] });
    await recordSettledCall(env, settled({ settlement: `0x${"cd".repeat(32)}`, remember: { ...identity, result: { articles: ["second"] } } }));
    const after = await db.select().from(x402PaymentIds);
    expect(after).toHaveLength(1);
    expect(JSON.parse(await decryptToken(env, after[0].result))).toEqual({ articles: ["first"] });
    expect(await db.select().from(x402Calls)).toHaveLength(3);
  });

  it("leaves a failed call's credit in the same batch, for the payer in lower case", async () => {
    const db = database(env);
    const credit = { payer: PAYER, tool: "get_audio_url", resource: "r", subject: "article:1", amountMicros: 1000 };
    const { callId } = await recordSettledCall(env, settled({ credit }));
    const [row] = await db.select().from(x402Credits);
    expect(row).toMatchObject({ ...credit, payer: PAYER.toLowerCase(), x402CallId: callId });
    await expect(recordSettledCall(env, settled({ credit }))).rejects.toThrow();
    expect(await db.select().from(x402Credits)).toHaveLength(1);
  });
});
