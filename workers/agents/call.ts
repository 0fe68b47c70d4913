import type { PaymentRequired, ResourceInfo } from "@x402/core/types";
import type * as v from "valibot";
import { config } from "../core/config";
import { ApiError } from "../core/errors";
import { spendUnits } from "../core/rate-limit";
import { requireScope } from "../oauth/bearer";
import { type Caller, walletCaller } from "./caller";
import type { Tool } from "./tools";
import type { Quote } from "./tools/tool";
import type { Scope } from "../oauth/scopes";
import { subjectOf } from "./x402/credits";
import { paidCall, type PaymentTransport } from "./x402/paid-call";
import { isPaidTool, type PaidTool } from "./x402/prices";
import { siwxChallenge, walletFromSiwx } from "./x402/siwx";
import { findWalletListener, walletListener } from "./wallet-listener";

/**
 * The per-agent budget (docs/rules.md 8): RATE_LIMIT_READ_PER_MINUTE units a minute per agent key,
 * in one RateLimiter Durable Object per key, leased to the isolate as the per-IP budgets are. A read
 * tool takes one unit, the digest more (Tool.budgetCost), so it is limited lower and weighs more
 * against the same budget; an MCP task method (tasks/get, tasks/result, ...) takes one, as a read does.
 * `what` names the spender in the refusal.
 */
export async function spendAgentBudget(env: Env, caller: Caller, what: string, units: number): Promise<void> {
  const limit = config(env).RATE_LIMIT_READ_PER_MINUTE;
  if (limit <= 0) return;
  const refused = await spendUnits(env, caller.agentKey, "agent_tools", limit, units);
  if (refused) {
    throw new ApiError(
      "rate_limited",
      `${what}: the budget of ${limit} units a minute for this agent is spent (this takes ${units}); retry in ${refused.retryAfter} s`,
      { "Retry-After": String(refused.retryAfter) },
    );
  }
}

/** Spends `tool`'s share of the caller's budget (Tool.budgetCost). */
export function spendBudget(env: Env, caller: Caller, tool: Tool): Promise<void> {
  return spendAgentBudget(env, caller, tool.name, tool.budgetCost);
}

/**
 * A paid tool runs when the call was paid (x402) or its OAuth token holds the tool's scope
 * (docs/agents/tools.md "MCP details"). The pipeline routes every other call to a payment first (call.ts accessOf);
 * this is the last guard, so no path can run a paid tool for free.
 */
function checkTier(caller: Caller, tool: Tool): void {
  if (!isPaidTool(tool.name) || caller.paid || caller.scopes.includes(tool.scope)) return;
  throw new ApiError(
    "payment_required",
    `${tool.name} is a paid tool: pay for the call with x402, or call with an OAuth bearer token holding the scope ${tool.scope}.`,
  );
}

/** Runs `tool` for `caller` with input its schema already validated: budget, tier, then the tool. */
export async function invoke<T extends Tool>(tool: T, input: Parameters<T["run"]>[0], caller: Caller, env: Env): Promise<v.InferOutput<T["output"]>> {
  await spendBudget(env, caller, tool);
  return perform(tool, input, caller, env);
}

/**
 * Runs `tool` for a `caller` whose budget was already spent: a paid call spends it before its payment
 * settles (call.ts paidWork), so that a call over budget is refused uncharged. `plan`: what the
 * call's quote found (Tool.quote).
 */
export function perform<T extends Tool>(
  tool: T,
  input: Parameters<T["run"]>[0],
  caller: Caller,
  env: Env,
  plan?: unknown,
): Promise<v.InferOutput<T["output"]>> {
  checkTier(caller, tool);
  return tool.run(input, caller, env, plan);
}

/**
 * How one tool call gets to run, the same on MCP and REST (docs/agents/tools.md "MCP details" and "Paying agents"); the surfaces
 * only carry each step in their transport's form.
 */
type Access =
  /** A free tool, or a bearer token holding the tool's scope. */
  | { kind: "run" }
  /** A paid tool without the scope: an x402 payment, from a wallet. */
  | { kind: "pay"; tool: PaidTool }
  /** A free tool that acts for a listener, without a token: a wallet signs in (Sign-In-With-X). */
  | { kind: "sign_in" };

/**
 * The caller `tool` runs for. A tool that does not act for a listener (search, article, audio, digest)
 * uses the listener only to read their listener_private articles, and reading articles as the
 * listener is what articles:read grants (oauth/scopes.ts): without it the call reads as nobody
 * in particular, so a token granted only for subscriptions or the digest shows no private article.
 */
export function actingCaller(tool: Tool, caller: Caller): Caller {
  if (tool.actsForListener || caller.scopes.includes("articles:read")) return caller;
  return { ...caller, listenerId: null };
}

/**
 * The scope a bearer token must be stepped up to before `tool` can run for `caller`, or null. A token that
 * acts for a listener but lacks the scope of a tool acting for one has no other way in: a payment would make
 * the call act for the wallet's subscription instead of the token's listener. (A paid tool without its scope
 * falls back to x402, which the token's agent may use.) Before a payment or a sign-in, only a bearer token
 * names a listener.
 */
export function stepUpScope(tool: Tool, caller: Caller): Scope | null {
  return tool.actsForListener && caller.listenerId !== null && !caller.scopes.includes(tool.scope) ? tool.scope : null;
}

/**
 * The access a call of `tool` by `caller` (as resolveCaller made it) needs; a token to step up is 403
 * insufficient_scope (RFC 6750 §3.1; on MCP the SDK answers it first, mcp-server.ts).
 */
function accessOf(env: Env, tool: Tool, caller: Caller): Access {
  if (caller.scopes.includes(tool.scope)) return { kind: "run" };
  const missing = stepUpScope(tool, caller);
  if (missing) requireScope(env, caller, missing);
  if (isPaidTool(tool.name)) return { kind: "pay", tool: tool.name };
  return tool.actsForListener ? { kind: "sign_in" } : { kind: "run" };
}

/**
 * The work of a paid call once its payment is verified (x402/pay.ts PaidCall): the tool runs for the
 * paying wallet (`wallet:<address>`, paid: bare audio, no pre-roll), whose budget is spent before the
 * payment settles. A tool acting for a listener acts for the subscription the wallet holds, created on
 * its first call; otherwise for the token's listener, if any. A read-only tool (MCP annotation
 * readOnlyHint: a digest) runs before settlement, so a failed one costs nothing; any other (a render,
 * a subscription) leaves something behind and runs only once the payment is settled, or on a credit its
 * failure after settling left the payer for the same arguments (x402/credits.ts). The call pays the
 * publishers its quote named, else those of its result (subscribe_topic: none, booked under "*").
 */
function paidWork(tool: Tool, input: Record<string, unknown>, caller: Caller, env: Env, quote: Quote) {
  // How long an MCP task's call waits (get_audio_url's waitSeconds) is not part of what was bought.
  const { waitSeconds: _, ...bought } = input;
  return {
    settle: tool.annotations.readOnlyHint ? ("after_work" as const) : ("before_work" as const),
    subject: subjectOf(bought),
    admit: ({ payer }: { payer: `0x${string}` }) => spendBudget(env, walletCaller(caller, payer, null, true), tool),
    run: async ({ payer }: { payer: `0x${string}` }) => {
      const listenerId = tool.actsForListener ? (await walletListener(env, payer)).id : caller.listenerId;
      const value = await perform(tool, input, walletCaller(caller, payer, listenerId, true), env, quote.plan);
      return { value, publishers: quote.publishers ?? tool.publishersOf?.(value) ?? [], listenerId, pendingJob: tool.pendingJobOf?.(value) ?? null };
    },
  };
}

/** A Sign-In-With-X answer: the wallet's caller, or the challenge to answer (again, with the reason). */
type SignIn = { ok: true; caller: Caller } | { ok: false; challenge: PaymentRequired };

/**
 * Sign-In-With-X for `resource` (x402/siwx.ts): without a proof, the challenge; with a valid one, the
 * caller acting for the subscription the wallet holds (none yet: no listener); else the challenge
 * again with the refusal as its `error`. `uri` is the HTTP address the proof is sent to.
 */
async function signIn(env: Env, caller: Caller, proof: unknown, resource: ResourceInfo, uri?: string): Promise<SignIn> {
  const challenge = siwxChallenge(env, resource, uri);
  if (proof === undefined || proof === null) return { ok: false, challenge };
  const wallet = await walletFromSiwx(env, proof);
  if (!wallet.ok) return { ok: false, challenge: { ...challenge, error: `${wallet.reason}: ${wallet.message}` } };
  const listener = await findWalletListener(env, wallet.address);
  return { ok: true, caller: walletCaller(caller, wallet.address, listener?.id ?? null, false) };
}

/**
 * How a surface carries a tool call: its x402 transport (which also carries the Sign-In-With-X
 * challenge, as a PaymentRequired), the proof of a wallet signing in, and a result in its own form.
 */
export interface Surface<R> extends PaymentTransport<R> {
  /** The Sign-In-With-X proof the call carries, if any; `signInUri` is the HTTP address it binds. */
  signInProof(): unknown;
  signInUri?: string;
  render(value: Record<string, unknown>): R;
}

/**
 * One tool call for the caller the route table resolved, the same on every surface: the caller the
 * tool acts as, then the access it needs (accessOf); a free call or one the token's scope covers runs
 * (budget, tier, work); a paid one is quoted once (Tool.quote), paid for over the surface's x402
 * transport, run with what the quote found, and recorded with its ledger legs (x402/pay.ts payForCall);
 * a wallet acting for its subscription signs in first.
 */
export async function callTool<R>(env: Env, tool: Tool, input: Record<string, unknown>, resolved: Caller, surface: Surface<R>): Promise<R> {
  const caller = actingCaller(tool, resolved);
  const access = accessOf(env, tool, caller);
  if (access.kind === "run") return surface.render(await invoke(tool, input, caller, env));
  if (access.kind === "pay") {
    const quote: Quote = (await tool.quote?.(input, caller, env)) ?? { state: {}, plan: undefined };
    return paidCall(surface, {
      env,
      tool: access.tool,
      state: quote.state,
      listenerId: caller.listenerId,
      ...paidWork(tool, input, caller, env, quote),
      render: surface.render,
    });
  }
  const signed = await signIn(env, caller, surface.signInProof(), surface.resource(), surface.signInUri);
  if (!signed.ok) return surface.required(signed.challenge);
  return surface.render(await invoke(tool, input, signed.caller, env));
}
