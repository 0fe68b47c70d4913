import { env } from "cloudflare:workers";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call } from "../../../test/support/client";
import { recorded, walletAgent } from "../../../test/support/x402";
import { database, x402PaymentIds } from "../../db";

/**
 * Attacks on idempotent payments (issue 40 item 6): a payment-identifier repeated where, when or by whom it
 * was not first used. What the attacker sends, and what must not happen: an answer handed over again (a
 * subscription's private feed URL), or kept readable, or kept for ever.
 */

afterEach(() => vi.restoreAllMocks());

type Http = ReturnType<typeof walletAgent>["http"];

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", ...headers },
});

/** A subscription paid for over REST, carrying the payment identifier `id`. */
async function subscriptionPayment(http: Http, id: string): Promise<PaymentPayload> {
  const quote = await call("/v1/agent/subscriptions", json({ verticals: ["tech"] }));
  expect(quote.status).toBe(402);
  const payload = await http.createPaymentPayload(http.getPaymentRequiredResponse((name) => quote.headers.get(name), await quote.json()));
  return { ...payload, extensions: appendPaymentIdentifierToExtensions(structuredClone(payload.extensions ?? {}), id) };
}

const send = (http: Http, path: string, body: unknown, payload: PaymentPayload) => call(path, json(body, http.encodePaymentSignatureHeader(payload)));

describe("a payment-identifier answers only its payer, at its resource, while a retry can come", () => {
  it("replayed at another tool's URL, it never answers the first tool's result (the private feed URL), and charges nothing", async () => {
    const { http } = walletAgent();
    const payload = await subscriptionPayment(http, generatePaymentId());
    const first = await send(http, "/v1/agent/subscriptions", { verticals: ["tech"] }, payload);
    expect(first.status).toBe(200);
    const { feed_url } = await first.json<{ feed_url: string }>();
    expect(feed_url).toMatch(/^http/);
    const booked = await recorded();

    const replay = await send(http, "/v1/agent/digest", {}, payload);
    expect(replay.status).not.toBe(200);
    expect(await replay.text()).not.toContain(feed_url);
    expect(await recorded()).toEqual(booked);
  });

  it("after the authorization expired, a repeat at the same URL gets no answer", async () => {
    const { http } = walletAgent();
    const payload = await subscriptionPayment(http, generatePaymentId());
    const first = await send(http, "/v1/agent/subscriptions", { verticals: ["tech"] }, payload);
    const { feed_url } = await first.json<{ feed_url: string }>();
    const validBefore = Number((payload.payload.authorization as { validBefore: string }).validBefore);
    vi.spyOn(Date, "now").mockReturnValue((validBefore + 1) * 1000);

    const late = await send(http, "/v1/agent/subscriptions", { verticals: ["tech"] }, payload);
    expect(late.status).toBe(402);
    expect((await late.json<PaymentRequired>()).error).toMatch(/^expired/);
    expect(await late.text().catch(() => "")).not.toContain(feed_url);
  });

  it("keeps the answer sealed, not in the clear, and only until the authorization's validBefore (an hour at most)", async () => {
    const { http, account } = walletAgent();
    const payload = await subscriptionPayment(http, generatePaymentId());
    const { feed_url } = await (await send(http, "/v1/agent/subscriptions", { verticals: ["tech"] }, payload)).json<{ feed_url: string }>();
    const [row] = await database(env).select().from(x402PaymentIds);
    // The payer as one spelling: an identifier is one wallet's, however its address is written (EIP-55 or not).
    expect(row.payer).toBe(account.address.toLowerCase());
    expect(row.result).not.toContain(feed_url);
    expect(row.result).not.toContain(new URL(feed_url).pathname.split("/").pop());
    // x402 clients sign validBefore = now + 300 s: the answer goes then.
    const validBefore = Number((payload.payload.authorization as { validBefore: string }).validBefore);
    expect(row.expiresAt.getTime()).toBe(validBefore * 1000);

    // A later paid call, once that time has passed, prunes it.
    vi.spyOn(Date, "now").mockReturnValue(row.expiresAt.getTime() + 1_000);
    const { http: other } = walletAgent();
    expect((await send(other, "/v1/agent/subscriptions", { verticals: ["tech"] }, await subscriptionPayment(other, generatePaymentId()))).status).toBe(200);
    const left = await database(env).select().from(x402PaymentIds);
    expect(left).toHaveLength(1);
    expect(left[0].payer).not.toBe(row.payer);
  });

  it("another payer using the same identifier is not answered with the first payer's result", async () => {
    const id = generatePaymentId();
    const { http: victim } = walletAgent();
    const first = await send(victim, "/v1/agent/subscriptions", { verticals: ["tech"] }, await subscriptionPayment(victim, id));
    const { feed_url } = await first.json<{ feed_url: string }>();
    const { http: attacker } = walletAgent();
    const res = await send(attacker, "/v1/agent/subscriptions", { verticals: ["tech"] }, await subscriptionPayment(attacker, id));
    expect(await res.text()).not.toContain(feed_url);
  });

  it("a payment of another version or scheme is refused by the payment's own rules, never answered from a first payment", async () => {
    const { http } = walletAgent();
    const id = generatePaymentId();
    const payload = await subscriptionPayment(http, id);
    const { feed_url } = await (await send(http, "/v1/agent/subscriptions", { verticals: ["tech"] }, payload)).json<{ feed_url: string }>();
    for (const [name, altered] of [
      ["version 1", { ...payload, x402Version: 1 }],
      ["no EIP-3009 authorization", { ...payload, payload: { signature: (payload.payload as { signature: string }).signature } }],
    ] as const) {
      // In PAYMENT-SIGNATURE whatever its version: a client would send version 1 as X-PAYMENT, never read here.
      const res = await call(
        "/v1/agent/subscriptions",
        json({ verticals: ["tech"] }, { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(altered as PaymentPayload) }),
      );
      const text = await res.text();
      expect(res.status, name).toBe(402);
      expect(text, name).not.toContain(feed_url);
    }
  });
});
