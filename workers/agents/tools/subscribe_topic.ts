import { eq } from "drizzle-orm";
import * as v from "valibot";
import { agentFeeds, database, listeners } from "../../db";
import { nowMs } from "../../db/tables/columns";
import { feedUrl, privateFeedToken } from "../../listeners/account";
import { actingListener } from "../listener";
import { catalogueVertical } from "../verticals";
import { VerticalsField } from "./fields";
import { defineTool } from "./tool";

export const SubscriptionView = v.object({
  feed_url: v.pipe(v.string(), v.description("The listener's private podcast feed: paste it into any podcast app.")),
  verticals: v.pipe(v.array(v.string()), v.description("The topics the feed follows.")),
  created_at: v.pipe(v.string(), v.description("When this agent first set the topics (ISO 8601).")),
  updated_at: v.pipe(v.string(), v.description("When this agent last set them (ISO 8601).")),
});

export const subscribe_topic = defineTool({
  name: "subscribe_topic",
  title: "Subscribe to topics",
  description:
    "Sets the topics of the listener this call acts for and returns their private podcast feed URL, which then carries " +
    "new articles of those topics. Replaces the previous topics. Needs an acting listener (OAuth token with " +
    "subscriptions:write) or an x402 payment from a wallet.",
  input: v.object({ verticals: VerticalsField }),
  output: SubscriptionView,
  scope: "subscriptions:write",
  budgetCost: 1,
  actsForListener: true,
  annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  async run(input, caller, env) {
    const listener = await actingListener(env, caller, "subscribe_topic");
    const verticals = [...new Set(input.verticals.map(catalogueVertical))];
    const db = database(env);
    // The listener's topics and the record of which agent set them change together.
    const [, [row]] = await db.batch([
      db.update(listeners).set({ verticals, updatedAt: new Date() }).where(eq(listeners.id, listener.id)),
      db
        .insert(agentFeeds)
        .values({ listenerId: listener.id, agentKey: caller.agentKey, verticals, updatedAt: new Date() })
        .onConflictDoUpdate({ target: [agentFeeds.listenerId, agentFeeds.agentKey], set: { verticals, updatedAt: nowMs } })
        .returning(),
    ]);
    return {
      feed_url: feedUrl(env, await privateFeedToken(env, listener)),
      verticals: row.verticals,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  },
});
