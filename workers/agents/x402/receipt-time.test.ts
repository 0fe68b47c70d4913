import { env } from "cloudflare:workers";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, SettleResponse } from "@x402/core/types";
import { extractReceiptPayload, type JWSSignedReceipt, OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call } from "../../../test/support/client";
import { walletAgent } from "../../../test/support/x402";
import { database, x402Calls } from "../../db";

/**
 * A receipt's issuedAt is when the call settled (its ledger row), not when the receipt was written
 * (issue 46): a repeated payment answered from memory carries the first call's receipt, dated then.
 * The settlement is moved far from now (2021) so the clock can never agree with it by chance. Planted
 * bug this catches: withReceipt (paid-call.ts) taking issuedAt from Date.now().
 */

type Http = ReturnType<typeof walletAgent>["http"];

async function digestPayment(http: Http): Promise<PaymentPayload> {
  const quote = await call("/v1/agent/digest", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const required = http.getPaymentRequiredResponse((name) => quote.headers.get(name), await quote.json());
  const payload = await http.createPaymentPayload(required);
  return { ...payload, extensions: appendPaymentIdentifierToExtensions(structuredClone(payload.extensions ?? {}), generatePaymentId()) };
}

async function receiptIssuedAt(http: Http, payload: PaymentPayload): Promise<number> {
  const res = await call("/v1/agent/digest", {
    method: "POST",
    headers: { "content-type": "application/json", ...http.encodePaymentSignatureHeader(payload) },
    body: "{}",
  });
  expect(res.status).toBe(200);
  const settlement: SettleResponse = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!);
  const receipt = (settlement.extensions![OFFER_RECEIPT] as { info: { receipt: JWSSignedReceipt } }).info.receipt;
  return extractReceiptPayload(receipt).issuedAt;
}

describe("a receipt's issuedAt", () => {
  it("is the settlement's time, also when a repeated payment is answered long after", async () => {
    const { http } = walletAgent();
    const payload = await digestPayment(http);
    const first = await receiptIssuedAt(http, payload);
    const [row] = await database(env).select().from(x402Calls);
    expect(first).toBe(Math.floor(row.createdAt.getTime() / 1000));

    const settledAt = new Date("2021-03-04T05:06:07Z");
    await database(env).update(x402Calls).set({ createdAt: settledAt }).where(eq(x402Calls.id, row.id));
    expect(await receiptIssuedAt(http, payload)).toBe(Math.floor(settledAt.getTime() / 1000));
  });
});
