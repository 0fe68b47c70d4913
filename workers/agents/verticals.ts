import * as v from "valibot";
import { canonicalVertical } from "../kernel/verticals";

/**
 * The vertical enum of the agent tools (docs/rules.md 2, "Known vertical slugs"). Each is the
 * canonical slug of a vertical of the listener catalogue (workers/kernel/verticals.ts), which
 * articles carry in their `vertical` column, so an agent vertical selects articles and listener
 * topics by that slug unchanged. The catalogue's other verticals (health, young_moms, news) are
 * not offered to agents.
 */
export const AGENT_VERTICALS = ["tech", "finance", "science", "media", "sports", "culture"] as const;
export type AgentVertical = (typeof AGENT_VERTICALS)[number];

/** The catalogue slug an agent vertical stands for. */
export function catalogueVertical(vertical: AgentVertical): string {
  const slug = canonicalVertical(vertical);
  if (slug === null) throw new Error(`agent vertical ${vertical} is missing from the listener catalogue`);
  return slug;
}

export const AgentVerticalField = v.pipe(v.picklist(AGENT_VERTICALS), v.description("Topic: one of tech, finance, science, media, sports, culture."));
