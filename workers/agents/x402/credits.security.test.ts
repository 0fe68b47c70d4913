import { env } from "cloudflare:workers";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addListener } from "../../../test/support/articles";
import { call } from "../../../test/support/client";
import { mcpClient } from "../../../test/support/mcp-client";
import { recorded, walletAgent } from "../../../test/support/x402";
import { database, listeners, x402Credits } from "../../db";
import { walletEmail } from "../wallet-listener";
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from "./mcp-transport";

/**
 * Issue 40 item 7, the refund in kind (credits.ts): a paid call that fails after its payment settled leaves its
 * payer a credit, and the payer's next paid call for the same thing is answered from it, verified and not settled.
 * The failure is the one only a settled subscribe_topic finds out: the wallet's subscription address is taken by
 * another row (wallet-listener.ts: 409). Paid with the official x402 client against the local facilitator, whose
 * settlements are its spent nonces (recorded().nonces): a credited call must add none.
 */

type Agent = ReturnType<typeof walletAgent>;

const subscribe = (headers: Record<string, string> = {}, verticals = ["tech"]) =>
  call("/v1/agent/subscriptions", { method: "POST", body: JSON.stringify({ verticals }), headers: { "content-type": "application/json", ...headers } });

/** A fresh payment of `agent` for the subscription, as the client makes one from the 402. */
async function payment(agent: Agent, verticals = ["tech"]): Promise<Record<string, string>> {
  const unpaid = await subscribe({}, verticals);
  expect(unpaid.status).toBe(402);
  const required = agent.http.getPaymentRequiredResponse((name) => unpaid.headers.get(name), await unpaid.json());
  return agent.http.encodePaymentSignatureHeader(await agent.http.createPaymentPayload(required));
}

/** The settlement of a REST answer, as the client reads PAYMENT-RESPONSE. */
const settlementOf = (agent: Agent, res: Response): SettleResponse => agent.http.getPaymentSettleResponse((name) => res.headers.get(name));

/** Makes the wallet's paid subscription fail after settlement: its address is taken. Returns how to free it. */
async function blockWallet(agent: Agent) {
  const { listener } = await addListener({ email: walletEmail(agent.account.address) });
  return () => database(env).delete(listeners).where(eq(listeners.id, listener.id));
}

const credits = () => database(env).select().from(x402Credits);

/** A REST subscription paid by `agent` that fails after settling: a 409 with its settlement, and a credit left. */
async function failedAfterSettlement(agent: Agent): Promise<SettleResponse> {
  const res = await subscribe(await payment(agent));
  expect(res.status).toBe(409);
  const settled = settlementOf(agent, res);
  expect(settled).toMatchObject({ success: true, payer: agent.account.address });
  return settled;
}

describe("a paid call that fails after settling leaves its payer a credit (REST)", () => {
  it("the payer's next call for the same thing is answered from it, verified and never settled, once", async () => {
    const agent = walletAgent();
    const unblock = await blockWallet(agent);
    const failed = await failedAfterSettlement(agent);
    expect(await recorded()).toMatchObject({ calls: 1, nonces: 1 });
    const [credit] = await credits();
    expect(credit).toMatchObject({
      payer: agent.account.address.toLowerCase(),
      tool: "subscribe_topic",
      subject: '{"verticals":["tech"]}',
      amountMicros: 10_000,
    });
    // Kept a day (from the failure; the row's created_at is D1's clock, a moment apart).
    expect(Math.abs(credit.expiresAt.getTime() - credit.createdAt.getTime() - 86_400_000)).toBeLessThan(60_000);

    await unblock();
    const credited = await subscribe(await payment(agent));
    expect(credited.status).toBe(200);
    expect(await credited.json()).toMatchObject({ verticals: ["tech"] });
    // In the protocol's terms: a success that settled nothing now, paid by the failed call's settlement.
    expect(settlementOf(agent, credited)).toMatchObject({
      success: true,
      amount: "0",
      transaction: failed.transaction,
      payer: agent.account.address.toLowerCase(),
    });
    // The facilitator verified the fresh payment and settled nothing; nothing more is booked; the credit is spent.
    expect(await recorded()).toMatchObject({ calls: 1, nonces: 1 });
    expect(await credits()).toEqual([]);

    // Used once: the next call is paid as any other.
    const next = await subscribe(await payment(agent));
    expect(next.status).toBe(200);
    expect(settlementOf(agent, next)).toMatchObject({ success: true, transaction: expect.not.stringMatching(failed.transaction) });
    expect(await recorded()).toMatchObject({ calls: 2, nonces: 2 });
  });

  it("another payer, or the same payer for other arguments, cannot use it: they are settled and charged", async () => {
    const owed = walletAgent();
    await blockWallet(owed);
    await failedAfterSettlement(owed);

    const other = walletAgent();
    expect((await subscribe(await payment(other))).status).toBe(200);
    expect(await recorded()).toMatchObject({ calls: 2, nonces: 2 });

    // The owed payer asks for other topics: not what the credit is for (and still blocked, so 409 and settled).
    const elsewhere = await subscribe(await payment(owed, ["science"]), ["science"]);
    expect(elsewhere.status).toBe(409);
    expect(settlementOf(owed, elsewhere).amount).toBe("10000");
    expect(await recorded()).toMatchObject({ calls: 3, nonces: 3 });
    expect((await credits()).map((c) => c.subject).sort()).toEqual(['{"verticals":["science"]}', '{"verticals":["tech"]}']);
  });

  it("an expired credit is not used, and is pruned", async () => {
    const agent = walletAgent();
    const unblock = await blockWallet(agent);
    await failedAfterSettlement(agent);
    await database(env)
      .update(x402Credits)
      .set({ expiresAt: new Date(Date.now() - 1) });
    await unblock();

    const res = await subscribe(await payment(agent));
    expect(res.status).toBe(200);
    expect(settlementOf(agent, res).amount).toBe("10000");
    expect(await recorded()).toMatchObject({ calls: 2, nonces: 2 });
    expect(await credits()).toEqual([]);
  });

  it("concurrent calls of the payer cannot both use it: one is credited, the other settled", async () => {
    const agent = walletAgent();
    const unblock = await blockWallet(agent);
    await failedAfterSettlement(agent);
    await unblock();

    const payments = await Promise.all([payment(agent), payment(agent), payment(agent)]);
    const answers = await Promise.all(payments.map((headers) => subscribe(headers)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const amounts = answers.map((r) => settlementOf(agent, r).amount);
    expect(amounts.filter((a) => a === "0")).toHaveLength(1);
    expect(await recorded()).toMatchObject({ calls: 3, nonces: 3 });
    expect(await credits()).toEqual([]);
  });

  it("a credited call that fails again keeps the credit and settles nothing", async () => {
    const agent = walletAgent();
    await blockWallet(agent);
    await failedAfterSettlement(agent);

    const again = await subscribe(await payment(agent));
    expect(again.status).toBe(409);
    expect(again.headers.get("PAYMENT-RESPONSE")).toBeNull();
    expect(await recorded()).toMatchObject({ calls: 1, nonces: 1 });
    expect(await credits()).toHaveLength(1);
  });
});

describe("a paid call that fails after settling leaves its payer a credit (MCP)", () => {
  it("answered from the credit in _meta['x402/payment-response'], with nothing settled", async () => {
    const agent = walletAgent();
    const unblock = await blockWallet(agent);
    const client = await mcpClient({ ip: "203.0.113.40" });
    const pay = async () => {
      const unpaid = await client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] } });
      const payload = await agent.http.createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);
      return client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] }, _meta: { [MCP_PAYMENT_META]: payload } });
    };

    const failed = await pay();
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ code: "conflict" });
    const charged = failed._meta?.[MCP_PAYMENT_RESPONSE_META] as SettleResponse;
    expect(charged).toMatchObject({ success: true, payer: agent.account.address });
    expect(await credits()).toMatchObject([{ resource: "mcp://tool/subscribe_topic" }]);

    await unblock();
    const credited = await pay();
    expect(credited.isError).toBeFalsy();
    expect(credited.structuredContent).toMatchObject({ verticals: ["tech"] });
    expect(credited._meta?.[MCP_PAYMENT_RESPONSE_META]).toMatchObject({ success: true, amount: "0", transaction: charged.transaction });
    expect(await recorded()).toMatchObject({ calls: 1, nonces: 1 });
    expect(await credits()).toEqual([]);
    await client.close();
  });
});
