import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type * as v from "valibot";
import type { Caller } from "../caller";
import type { PriceWeight } from "../prices";

import type { Scope } from "../../kernel/oauth/scopes";

type ObjectSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;

/**
 * One agent tool, shared by every surface: MCP (/mcp/v1), REST (/v1/agent/*) and the manifests.
 * Surfaces validate `input` themselves and call `run` through invoke() (workers/agents/invoke.ts),
 * which spends the caller's budget and checks the tier first.
 */
export interface Tool<
  I extends ObjectSchema = ObjectSchema,
  O extends ObjectSchema = ObjectSchema,
  N extends string = string,
  /** What run takes: the arguments, plus what only some surfaces offer (get_audio_url's REST voice). */
  R extends v.InferOutput<I> = v.InferOutput<I>,
> {
  name: N;
  title: string;
  /** For the model choosing a tool: what it does, what it returns, what it costs. */
  description: string;
  /** Arguments; every field carries a description. */
  input: I;
  output: O;
  tier: "free" | "paid";
  /** The scope that stands in for a payment on a paid tool, or that a free tool's REST operation asks for. */
  scope: Scope;
  /** Key of the x402 price table (workers/agents/prices.ts). */
  weight: PriceWeight;
  /** Units one call takes from the caller's per-minute budget (README Rules 8: digest counts more). */
  budgetCost: number;
  /**
   * True when the tool acts for a listener (subscribe_topic, list_subscriptions): a bearer token must
   * hold `scope` (else 403), and a wallet agent acts for the subscription its wallet holds.
   */
  actsForListener?: true;
  annotations: ToolAnnotations;
  /** Runs the tool for `caller`. Expected failures throw ApiError (a tool error on MCP, its status on REST). */
  run(input: R, caller: Caller, env: Env): Promise<v.InferOutput<O>>;
}

/** Declares a tool with `run` typed by its schemas. */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema, N extends string, R extends v.InferOutput<I> = v.InferOutput<I>>(
  tool: Tool<I, O, N, R>,
): Tool<I, O, N, R> {
  return tool;
}
