import { env } from "cloudflare:workers";
import { x402Client } from "@x402/core/client";
import { x402HTTPClient } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { database, ledgerEntries, x402Calls, x402LocalNonces, x402Reservations } from "../../workers/db";
import type { Facilitator } from "../../workers/agents/x402/facilitator";
import { httpPayments, paidCall } from "../../workers/agents/x402/paid-call";
import type { PaidCall } from "../../workers/agents/x402/pay";
import type { PaidTool, PriceState } from "../../workers/agents/x402/prices";

/** A wallet agent as the x402 client packages make one: a throwaway viem key and the exact EVM scheme. */
export function walletAgent() {
  const account = privateKeyToAccount(generatePrivateKey());
  const http = new x402HTTPClient(new x402Client().register("eip155:*", new ExactEvmScheme(account)));
  return { account, http };
}

/** The sample paid operation's knobs: what it costs, what it returns, when it settles, and whether it fails. */
export interface SampleOptions {
  tool?: PaidTool;
  /** Settled after the work (a read-only tool, the default) or before it (a tool whose effect lasts). */
  settle?: PaidCall<unknown>["settle"];
  state?: PriceState;
  publishers?: string[];
  fail?: boolean;
  agentId?: string;
  facilitator?: Facilitator;
}

/**
 * A tiny paid REST operation wired as a surface wires one (paidCall over httpPayments). `runs` counts how often the
 * work ran; `payer` is the wallet the work was told paid.
 */
export function sampleOperation(options: SampleOptions = {}) {
  const counter: { runs: number; payer?: string } = { runs: 0 };
  const publishers = options.publishers ?? ["Daily Planet"];
  const handle = (request: Request): Promise<Response> =>
    paidCall(httpPayments(env, request, "A sample paid operation", { path: new URL(request.url).pathname }), {
      env,
      tool: options.tool ?? "digest",
      state: options.state,
      agentId: options.agentId,
      facilitator: options.facilitator,
      settle: options.settle ?? "after_work",
      subject: "{}",
      run: async ({ payer }) => {
        counter.runs += 1;
        counter.payer = payer;
        if (options.fail) throw new Error("the tool failed");
        return { value: { articles: publishers }, publishers };
      },
      render: (value) => Response.json(value),
    });
  return { handle, counter };
}

/** Asks `handle` at `url` unpaid and returns the PaymentRequired the client library reads from the 402. */
export async function quote(handle: (r: Request) => Promise<Response>, http: x402HTTPClient, url: string): Promise<PaymentRequired> {
  const res = await handle(new Request(url));
  return http.getPaymentRequiredResponse((name) => res.headers.get(name), await res.json());
}

/** Sends `payload` to `handle` at `url` in PAYMENT-SIGNATURE. */
export function paid(handle: (r: Request) => Promise<Response>, http: x402HTTPClient, url: string, payload: PaymentPayload): Promise<Response> {
  return handle(new Request(url, { headers: http.encodePaymentSignatureHeader(payload) }));
}

/** Row counts of everything a payment may write. */
export async function recorded() {
  const db = database(env);
  const [calls, legs, nonces] = await Promise.all([db.$count(x402Calls), db.$count(ledgerEntries), db.$count(x402LocalNonces)]);
  return { calls, legs, nonces };
}

/**
 * A payment whose signed authorization departs from the quote by `change` (the client signs what it is
 * given: `amount` becomes the authorized value, `maxTimeoutSeconds` sets validBefore = now + it), while
 * `accepted` still names the quote, as an attacker would send it: only the signed part differs.
 */
export async function signedWith(http: x402HTTPClient, required: PaymentRequired, change: Partial<PaymentRequirements>): Promise<PaymentPayload> {
  const payload = await http.createPaymentPayload({ ...required, accepts: [{ ...required.accepts[0], ...change }] });
  return { ...payload, accepted: required.accepts[0] };
}

/** How many authorizations are held by a call (workers/agents/x402/reservations.ts). */
export function reservations(): Promise<number> {
  return database(env).$count(x402Reservations);
}
