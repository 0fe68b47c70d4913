import type { LEDGER_PARTIES } from "../db/index";

export type Party = (typeof LEDGER_PARTIES)[number];

/** Revenue share in percent (docs/rules.md "Rules" 2, Revenue share). */
const SHARES: Record<Party, number> = { publisher: 70, agent_recommender: 20, platform: 10 };

/**
 * Splits `totalMicros` into the three legs in whole micros. The agent recommender and platform legs
 * are rounded down and the publisher takes what is left, so the legs always sum to the total and
 * the rounding remainder (at most 1 micro per rounded leg) falls to the publisher.
 */
export function splitPlay(totalMicros: number): Record<Party, number> {
  const agent = Math.floor((totalMicros * SHARES.agent_recommender) / 100);
  const platform = Math.floor((totalMicros * SHARES.platform) / 100);
  return { publisher: totalMicros - agent - platform, agent_recommender: agent, platform };
}
