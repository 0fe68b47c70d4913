import { env } from "cloudflare:workers";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { database, x402Calls } from "../../db";
import { httpFacilitator } from "./facilitator";
import { paid, quote, recorded, reservations, sampleOperation, signedWith, walletAgent } from "../../../test/support/x402";

const URL_A = "https://api.test/v1/sample/a";
const FACILITATOR = "https://facilitator.test";
const TX = `0x${"ab".repeat(32)}`;

type Answer = Response | "hang";

/** Fakes the facilitator at fetch: POST /verify and POST /settle answer as given; "hang" waits for the client's timeout. */
function fakeFacilitator(answers: { verify: () => Answer; settle?: () => Answer }) {
  const bodies: Record<string, unknown>[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    expect(url.origin).toBe(FACILITATOR);
    bodies.push(JSON.parse(String(init?.body)));
    const answer = url.pathname === "/verify" ? answers.verify() : answers.settle!();
    if (answer !== "hang") return answer;
    return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
  });
  return bodies;
}

const valid = () => Response.json({ isValid: true, payer: "0x0000000000000000000000000000000000000001" });
const settled = () => Response.json({ success: true, transaction: TX, network: "eip155:84532", payer: "0x0000000000000000000000000000000000000001" });

async function payThrough(options: Parameters<typeof sampleOperation>[0] = {}) {
  const { http } = walletAgent();
  const op = sampleOperation({ ...options, facilitator: httpFacilitator(FACILITATOR, 50) });
  const payload = await http.createPaymentPayload(await quote(op.handle, http, URL_A));
  const res = await paid(op.handle, http, URL_A, payload);
  return { res, runs: op.counter.runs };
}

function errorOf(res: Response): string | undefined {
  expect(res.status).toBe(402);
  return decodePaymentRequiredHeader(res.headers.get("PAYMENT-REQUIRED")!).error;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a real facilitator through @x402/core's HTTP client, faked at fetch", () => {
  it("verifies and settles through POST /verify and /settle, recording the transaction hash", async () => {
    const bodies = fakeFacilitator({ verify: valid, settle: settled });
    const { res, runs } = await payThrough();
    expect(res.status).toBe(200);
    expect(runs).toBe(1);
    expect(decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!).transaction).toBe(TX);
    expect(bodies).toHaveLength(2);
    for (const body of bodies)
      expect(body).toMatchObject({ x402Version: 2, paymentPayload: { x402Version: 2 }, paymentRequirements: { scheme: "exact", amount: "50000" } });
    const [call] = await database(env).select().from(x402Calls);
    expect(call.settlement).toBe(TX);
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 0 });
  });

  it("credits the authorization's signer when the facilitator names no payer", async () => {
    fakeFacilitator({
      verify: () => Response.json({ isValid: true }),
      settle: () => Response.json({ success: true, transaction: TX, network: "eip155:84532" }),
    });
    const { http, account } = walletAgent();
    const op = sampleOperation({ facilitator: httpFacilitator(FACILITATOR, 50) });
    const res = await paid(op.handle, http, URL_A, await http.createPaymentPayload(await quote(op.handle, http, URL_A)));
    expect(res.status).toBe(200);
    const [call] = await database(env).select().from(x402Calls);
    expect(call).toMatchObject({ payer: account.address.toLowerCase(), agentId: `eip155:84532:${account.address.toLowerCase()}` });
  });

  it.each([
    ["answers 500", () => new Response("upstream exploded", { status: 500 })],
    ["answers invalid JSON", () => new Response("<html>", { status: 200 })],
    ["times out", (): Answer => "hang"],
  ])("fails cleanly when verify %s: no work, nothing charged", async (_, verify) => {
    fakeFacilitator({ verify });
    const { res, runs } = await payThrough();
    expect(errorOf(res)).toMatch(/^facilitator_unavailable: /);
    expect(runs).toBe(0);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });

  it.each([
    ["answers 503", () => new Response("busy", { status: 503 })],
    ["times out", (): Answer => "hang"],
  ])("withholds the result and records nothing when settle %s", async (_, settle) => {
    fakeFacilitator({ verify: valid, settle });
    const { res, runs } = await payThrough();
    expect(errorOf(res)).toMatch(/^facilitator_unavailable: /);
    expect(runs).toBe(1);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });

  it("passes on a refused verification with the facilitator's reason", async () => {
    fakeFacilitator({ verify: () => Response.json({ isValid: false, invalidReason: "insufficient_funds" }) });
    const { res, runs } = await payThrough();
    expect(errorOf(res)).toBe("payment_refused: the facilitator refused the payment (insufficient_funds)");
    expect(runs).toBe(0);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });

  // A facilitator's verify does not spend the authorization: only the taken reservation keeps the others out.
  it.each(["after_work", "before_work"] as const)("runs and settles one of three concurrent calls with one authorization (settled %s)", async (settle) => {
    let settles = 0;
    fakeFacilitator({ verify: valid, settle: () => (settles++, settled()) });
    const { http } = walletAgent();
    const op = sampleOperation({ settle, facilitator: httpFacilitator(FACILITATOR, 1_000) });
    const payload = await http.createPaymentPayload(await quote(op.handle, http, URL_A));
    const answers = await Promise.all([1, 2, 3].map(() => paid(op.handle, http, URL_A, payload)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 402, 402]);
    for (const r of answers.filter((a) => a.status === 402)) expect(errorOf(r)).toMatch(/^replay: /);
    expect(op.counter.runs).toBe(1);
    expect(settles).toBe(1);
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 0 });
    expect(await reservations()).toBe(1);
  });

  it("refuses an authorization valid for 7 more seconds without asking the facilitator", async () => {
    const bodies = fakeFacilitator({ verify: valid, settle: settled });
    const { http } = walletAgent();
    const op = sampleOperation({ facilitator: httpFacilitator(FACILITATOR, 50) });
    const payload = await signedWith(http, await quote(op.handle, http, URL_A), { maxTimeoutSeconds: 7 });
    expect(errorOf(await paid(op.handle, http, URL_A, payload))).toMatch(/^expires_too_soon: /);
    expect(bodies).toHaveLength(0);
    expect(op.counter.runs).toBe(0);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });

  it("answers a failed settlement with PAYMENT-RESPONSE and records nothing", async () => {
    fakeFacilitator({
      verify: valid,
      settle: () => Response.json({ success: false, errorReason: "invalid_exact_evm_nonce_already_used", transaction: "", network: "eip155:84532" }),
    });
    const { res } = await payThrough();
    expect(errorOf(res)).toMatch(/^replay: /);
    expect(decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_nonce_already_used",
    });
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });
});
