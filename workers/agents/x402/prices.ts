/**
 * The one price concept of the agent tools (docs/rules.md 4 "Agent tools", part 5 "x402 micropayments"):
 * a tool is paid exactly when it has a row in PRICES; manifests, 402 answers, payment checks and the
 * last guard before a tool runs (call.ts perform) all read that row. Amounts are USDC atomic units (6
 * decimals), so one unit is one micro-dollar and every price lies between $0.001 (1000) and $0.30 (300000).
 */

/** One tool's price: one amount, or two by whether the work is already done (get_audio_url's cached audio). */
type Price = number | { readonly cached: number; readonly render: number };

/** What a tool's price depends on: only get_audio_url's, on whether the audio is already cached. */
export interface PriceState {
  cached?: boolean;
}

/**
 * Prices by weight: a cached URL is a lookup; a render runs the TTS engine and stores three encodings;
 * a subscription mints and keeps a private feed; a digest ranks articles across verticals and a window,
 * the heaviest action (docs/rules.md 4).
 */
export const PRICES = {
  get_audio_url: { cached: 1_000, render: 20_000 },
  subscribe_topic: 10_000,
  digest: 50_000,
} as const satisfies Record<string, Price>;

/** The paid tools (docs/rules.md 5 rule 1); every other tool is free and is never charged. */
export type PaidTool = keyof typeof PRICES;

export const PAID_TOOLS = Object.keys(PRICES) as PaidTool[];

/** Whether `tool` costs anything. */
export function isPaidTool(tool: string): tool is PaidTool {
  return Object.hasOwn(PRICES, tool);
}

/**
 * The price a paid tool is quoted at now, in USDC atomic units; null for a free tool. get_audio_url
 * without a known state is quoted at the render price, the price of the work it may have to do.
 */
export function priceOf(tool: string, state: PriceState = {}): number | null {
  if (!isPaidTool(tool)) return null;
  const price: Price = PRICES[tool];
  if (typeof price === "number") return price;
  return state.cached ? price.cached : price.render;
}

/**
 * The amounts a payment may carry for `tool` given the state at settlement time.
 *
 * A render that becomes cached between the quote and the payment: the client signed the render price
 * it was quoted (an exact-scheme authorization names one amount, and only that amount can be settled),
 * and that quote was right when given, so it is honoured: while the audio is cached both the cached and
 * the render price are accepted. The reverse cannot be honoured: a cached-price payment for audio that
 * is not cached would buy a render below its price, so it is refused with a fresh quote. Audio never
 * goes from cached back to uncached (the bytes behind an audio URL never change), so no honest quote
 * is ever refused.
 */
export function acceptedAmounts(tool: PaidTool, state: PriceState = {}): number[] {
  const price: Price = PRICES[tool];
  if (typeof price !== "number" && state.cached) return [price.cached, price.render];
  return [priceOf(tool, state)!];
}

/** The price when cached, for a tool whose price depends on it (get_audio_url); null for any other. */
export function cachedPriceOf(tool: string): number | null {
  if (!isPaidTool(tool)) return null;
  const price: Price = PRICES[tool];
  return typeof price === "number" ? null : price.cached;
}
