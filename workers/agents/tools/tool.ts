import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type * as v from "valibot";
import type { Caller } from "../caller";
import type { PriceState } from "../x402/prices";

import type { Scope } from "../../oauth/scopes";

type ObjectSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;

/**
 * What a paid call is priced by, found once before the payment (the pipeline's quote step,
 * workers/agents/call.ts) and handed to `run`, so the work does not look it up again.
 */
export interface Quote<P = unknown> {
  state: PriceState;
  /** The publishers the call pays (x402/ledger.ts callLegs), when known before the work. */
  publishers?: readonly string[];
  /** What the quote found, for `run`. */
  plan: P;
}

/**
 * One agent tool, shared by every surface: MCP (/mcp/v1), REST (/v1/agent/*) and the manifests.
 * Surfaces validate `input` themselves and call it through one pipeline (workers/agents/call.ts).
 * Whether it is paid, and its price, is x402/prices.ts's: a tool is paid when PRICES has its name.
 */
export interface Tool<
  I extends ObjectSchema = ObjectSchema,
  O extends ObjectSchema = ObjectSchema,
  N extends string = string,
  /** What run takes: the arguments, plus what only some surfaces offer (get_audio_url's REST voice). */
  R extends v.InferOutput<I> = v.InferOutput<I>,
  /** What the tool's quote hands its run (get_audio_url: the article and the audio found). */
  P = unknown,
> {
  name: N;
  title: string;
  /** For the model choosing a tool: what it does, what it returns, what it costs. */
  description: string;
  /** Arguments; every field carries a description. */
  input: I;
  output: O;
  /** The scope that stands in for a payment on a paid tool, or that a free tool's REST operation asks for. */
  scope: Scope;
  /** Units one call takes from the caller's per-minute budget (docs/rules.md 8: digest counts more). */
  budgetCost: number;
  /**
   * True when the tool acts for a listener (subscribe_topic, list_subscriptions): a bearer token must
   * hold `scope` (else 403), and a wallet agent acts for the subscription its wallet holds.
   */
  actsForListener?: true;
  annotations: ToolAnnotations;
  /** A paid tool whose price depends on the state of things: what it is priced by now (else the state is {}). */
  quote?(input: R, caller: Caller, env: Env): Promise<Quote<P>>;
  /** The publishers a paid call pays, from its result, when the quote did not name them (a digest's articles'). */
  publishersOf?(value: v.InferOutput<O>): readonly string[];
  /**
   * The work a paid answer left still running, that may yet fail (get_audio_url's pending render): the
   * payer is then owed a credit should it fail (x402/credits.ts).
   */
  pendingJobOf?(value: v.InferOutput<O>): string | null;
  /**
   * Runs the tool for `caller`, with the plan of the quote when the call was quoted. Expected failures
   * throw ApiError (a tool error on MCP, its status on REST).
   */
  run(input: R, caller: Caller, env: Env, plan?: P): Promise<v.InferOutput<O>>;
}

/** Declares a tool with `run` typed by its schemas. */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema, N extends string, R extends v.InferOutput<I> = v.InferOutput<I>, P = unknown>(
  tool: Tool<I, O, N, R, P>,
): Tool<I, O, N, R, P> {
  return tool;
}
