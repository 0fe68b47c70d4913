import { env } from "cloudflare:workers";
import type { PaymentRequirements } from "@x402/core/types";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LocalFacilitator } from "./local-facilitator";
import { requirementFor, x402Settings } from "./requirements";
import { walletAgent } from "../../../test/support/x402";

/**
 * The local facilitator checks what the USDC contract and @x402/evm's facilitator would (README
 * "Facilitators"), tested at its own boundary: the paid-call pipeline refuses short windows before it
 * is ever asked, so these edges are reachable only here.
 */

/** A resource and requirement as a paid call offers them: 50,000 units (a digest, docs/agents/payments.md "Prices"). */
const resource = { url: "https://api.test/v1/sample", description: "sample", mimeType: "application/json" };
const requirement = (): PaymentRequirements => requirementFor(x402Settings(env), 50_000);

/** An authorization signed for `change` of the requirement, checked against the requirement itself. */
async function signed(change: Partial<PaymentRequirements>) {
  const { http } = walletAgent();
  const offered = requirement();
  const payload = await http.createPaymentPayload({ x402Version: 2, resource, accepts: [{ ...offered, ...change }] });
  return { payload: { ...payload, accepted: offered }, offered };
}

beforeEach(() => {
  // On a whole second plus a half, so that validBefore - now is exactly the signed timeout.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Math.ceil(Date.now() / 1000) * 1000 + 500);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("LocalFacilitator (X402_FACILITATOR_URL=local)", () => {
  // Issue 35 item 2: planting `validBefore < now` for the 6 s margin in checkAuthorization makes this fail.
  it("refuses, at verify and at settle, an authorization within 6 s of its validBefore, and takes one 6 s away", async () => {
    const facilitator = new LocalFacilitator(env.DB);
    const short = await signed({ maxTimeoutSeconds: 5 });
    expect(await facilitator.verify(short.payload, short.offered)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_authorization_valid_before",
    });
    expect(await facilitator.settle(short.payload, short.offered)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_payload_authorization_valid_before",
    });

    const enough = await signed({ maxTimeoutSeconds: 6 });
    expect(await facilitator.verify(enough.payload, enough.offered)).toMatchObject({ isValid: true });
    expect(await facilitator.settle(enough.payload, enough.offered)).toMatchObject({ success: true, transaction: expect.stringMatching(/^local:\d+$/) });
  });

  // Issue 35 item 1: planting a tolerance of one unit in the value check makes this fail.
  it.each(["49999", "50001"])("refuses an authorization of %s units for a price of 50,000, at verify and at settle", async (amount) => {
    const facilitator = new LocalFacilitator(env.DB);
    const { payload, offered } = await signed({ amount });
    expect(await facilitator.verify(payload, offered)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_authorization_value_mismatch",
    });
    expect(await facilitator.settle(payload, offered)).toMatchObject({ success: false, errorReason: "invalid_exact_evm_payload_authorization_value_mismatch" });
  });

  it("settles an authorization of exactly the price once", async () => {
    const facilitator = new LocalFacilitator(env.DB);
    const { payload, offered } = await signed({});
    expect(await facilitator.verify(payload, offered)).toMatchObject({ isValid: true });
    expect(await facilitator.settle(payload, offered)).toMatchObject({ success: true, amount: "50000" });
    expect(await facilitator.verify(payload, offered)).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_nonce_already_used" });
    expect(await facilitator.settle(payload, offered)).toMatchObject({ success: false, errorReason: "invalid_exact_evm_nonce_already_used" });
  });
});
