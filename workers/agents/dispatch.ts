import type { PaymentRequired, ResourceInfo } from "@x402/core/types";
import { requireScope } from "../kernel/oauth/bearer";
import { type Caller, walletCaller } from "./caller";
import { perform, spendBudget } from "./invoke";
import type { Tool } from "./tools";
import { audioQuote } from "./tools/get_audio_url";
import { isPaidTool, type PaidTool, type PriceState } from "./x402/prices";
import { siwxChallenge, walletFromSiwx } from "./x402/siwx";
import { findWalletListener, walletListener } from "./wallet-listener";

/**
 * How one tool call gets to run, the same on MCP and REST (README "MCP", "x402"); the surfaces
 * only carry each step in their transport's form.
 */
export type Access =
  /** A free tool, or a bearer token holding the tool's scope. */
  | { kind: "run" }
  /** A paid tool without the scope: an x402 payment, from a wallet. */
  | { kind: "pay"; tool: PaidTool }
  /** A free tool that acts for a listener, without a token: a wallet signs in (Sign-In-With-X). */
  | { kind: "sign_in" };

/**
 * The caller `tool` runs for. A tool that does not act for a listener (search, article, audio, digest)
 * uses the listener only to read their listener_private articles, and reading articles as the
 * listener is what articles:read grants (kernel/oauth/scopes.ts): without it the call reads as nobody
 * in particular, so a token granted only for subscriptions or the digest shows no private article.
 */
export function actingCaller(tool: Tool, caller: Caller): Caller {
  if (tool.actsForListener || caller.scopes.includes("articles:read")) return caller;
  return { ...caller, listenerId: null };
}

/**
 * The access a call of `tool` by `caller` (as resolveCaller made it) needs. A token that acts for a
 * listener but lacks the scope of a tool acting for one is 403 insufficient_scope (RFC 6750 §3.1):
 * a payment would make the call act for the wallet's subscription instead of the token's listener.
 */
export function accessOf(tool: Tool, caller: Caller): Access {
  if (caller.scopes.includes(tool.scope)) return { kind: "run" };
  // Before a payment or a sign-in, only a bearer token names a listener.
  if (tool.actsForListener && caller.listenerId !== null) requireScope(caller, tool.scope);
  if (tool.tier === "paid" && isPaidTool(tool.name)) return { kind: "pay", tool: tool.name };
  return tool.actsForListener ? { kind: "sign_in" } : { kind: "run" };
}

/** What a paid call is priced by, and the publishers it pays (x402/ledger.ts callLegs). */
export interface PaidTerms {
  state: PriceState;
  publishersOf(value: unknown): string[];
}

/**
 * The terms of a paid call of `tool`: get_audio_url is priced by whether the audio is cached and pays
 * the article's publisher; a digest pays the publishers of the articles it returns; subscribe_topic
 * returns no article, so its publisher share is booked under no single publisher.
 */
export async function paidTerms(tool: PaidTool, input: Record<string, unknown>, caller: Caller, env: Env): Promise<PaidTerms> {
  switch (tool) {
    case "get_audio_url": {
      const quote = await audioQuote(env, input as Parameters<typeof audioQuote>[1], caller);
      return { state: { cached: quote.cached }, publishersOf: () => [quote.publisher] };
    }
    case "digest":
      return { state: {}, publishersOf: (value) => (value as { articles: { publisher: string }[] }).articles.map((a) => a.publisher) };
    case "subscribe_topic":
      return { state: {}, publishersOf: () => [] };
  }
}

/**
 * The work of a paid call once its payment is verified (x402/pay.ts PaidCall): the tool runs for the
 * paying wallet (`wallet:<address>`, paid: bare audio, no pre-roll), whose budget is spent before the
 * payment settles. A tool acting for a listener acts for the subscription the wallet holds, created on
 * its first call; otherwise for the token's listener, if any. A read-only tool (MCP annotation
 * readOnlyHint: a digest) runs before settlement, so a failed one costs nothing; any other (a render,
 * a subscription) leaves something behind and runs only once the payment is settled.
 */
export function paidWork(tool: Tool, input: Record<string, unknown>, caller: Caller, env: Env, terms: PaidTerms) {
  return {
    settle: tool.annotations.readOnlyHint ? ("after_work" as const) : ("before_work" as const),
    admit: ({ payer }: { payer: `0x${string}` }) => spendBudget(env, walletCaller(caller, payer, null, true), tool),
    run: async ({ payer }: { payer: `0x${string}` }) => {
      const listenerId = tool.actsForListener ? (await walletListener(env, payer)).id : caller.listenerId;
      const value = await perform(tool, input, walletCaller(caller, payer, listenerId, true), env);
      return { value, publishers: terms.publishersOf(value), listenerId };
    },
  };
}

/** A Sign-In-With-X answer: the wallet's caller, or the challenge to answer (again, with the reason). */
export type SignIn = { ok: true; caller: Caller } | { ok: false; challenge: PaymentRequired };

/**
 * Sign-In-With-X for `resource` (x402/siwx.ts): without a proof, the challenge; with a valid one, the
 * caller acting for the subscription the wallet holds (none yet: no listener); else the challenge
 * again with the refusal as its `error`. `uri` is the HTTP address the proof is sent to.
 */
export async function signIn(env: Env, caller: Caller, proof: unknown, resource: ResourceInfo, uri?: string): Promise<SignIn> {
  const challenge = siwxChallenge(env, resource, uri);
  if (proof === undefined || proof === null) return { ok: false, challenge };
  const wallet = await walletFromSiwx(env, proof);
  if (!wallet.ok) return { ok: false, challenge: { ...challenge, error: `${wallet.reason}: ${wallet.message}` } };
  const listener = await findWalletListener(env, wallet.address);
  return { ok: true, caller: walletCaller(caller, wallet.address, listener?.id ?? null, false) };
}
