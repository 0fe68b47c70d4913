import { env } from "cloudflare:workers";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call } from "../../../test/support/client";
import { reservations, signedWith, walletAgent } from "../../../test/support/x402";
import { database, x402Reservations } from "../../db";

/** Reservations of authorizations are pruned once the authorization can no longer be used (issue 40 item 7). */

afterEach(() => vi.restoreAllMocks());

type Http = ReturnType<typeof walletAgent>["http"];

const digest = (headers: Record<string, string> = {}) =>
  call("/v1/agent/digest", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });

async function quoted(http: Http): Promise<PaymentRequired> {
  const res = await digest();
  return http.getPaymentRequiredResponse((name) => res.headers.get(name), await res.json());
}

const pay = (http: Http, payload: PaymentPayload) => digest(http.encodePaymentSignatureHeader(payload));
const validBefore = (payload: PaymentPayload) => Number((payload.payload.authorization as { validBefore: string }).validBefore);

describe("x402 reservations do not pile up", () => {
  it("a settled call's reservation is kept until its authorization's validBefore, then pruned by the next call", async () => {
    const { http } = walletAgent();
    const payload = await http.createPaymentPayload(await quoted(http));
    expect((await pay(http, payload)).status).toBe(200);
    const [kept] = await database(env).select().from(x402Reservations);
    expect(kept.expiresAt.getTime()).toBe(validBefore(payload) * 1000);

    // Still held while the authorization is valid: the same one again is a replay.
    expect((await pay(http, payload)).status).toBe(402);
    expect(await reservations()).toBe(1);

    vi.spyOn(Date, "now").mockReturnValue(kept.expiresAt.getTime() + 1_000);
    const { http: next } = walletAgent();
    expect((await pay(next, await next.createPaymentPayload(await quoted(next)))).status).toBe(200);
    const rows = await database(env).select().from(x402Reservations);
    expect(rows).toHaveLength(1);
    expect(rows[0].nonce).not.toBe(kept.nonce);
  });

  it("an authorization valid for a year is held a day at most", async () => {
    const { http } = walletAgent();
    const payload = await signedWith(http, await quoted(http), { maxTimeoutSeconds: 365 * 86_400 });
    const before = Date.now();
    await pay(http, payload);
    const [kept] = await database(env).select().from(x402Reservations);
    expect(kept.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect(kept.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 86_400_000);
  });
});
