import type * as v from "valibot";
import { config } from "../core/config";
import { ApiError } from "../core/errors";
import { spendUnits } from "../core/rate-limit";
import type { Caller } from "./caller";
import type { Tool } from "./tools";
import { isPaidTool } from "./x402/prices";

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
