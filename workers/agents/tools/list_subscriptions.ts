import { and, eq } from "drizzle-orm";
import * as v from "valibot";
import { agentFeeds, database } from "../../db";
import { feedUrl, privateFeedToken } from "../../listeners/account";
import { isWallet } from "../caller";
import { actingListener } from "../listener";
import { SubscriptionView } from "./subscribe_topic";
import { defineTool } from "./tool";

export const list_subscriptions = defineTool({
  name: "list_subscriptions",
  title: "List subscriptions",
  description:
    "The podcast feeds this agent set up (subscribe_topic) for the listener this call acts for, with their topics. " +
    "Free; needs an acting listener (OAuth token, or a wallet signed in with Sign-In-With-X).",
  input: v.object({}),
  output: v.object({ subscriptions: v.array(SubscriptionView) }),
  scope: "subscriptions:write",
  budgetCost: 1,
  actsForListener: true,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(_input, caller, env) {
    // A wallet signed in with Sign-In-With-X that never subscribed holds no listener, hence no feeds.
    if (caller.listenerId === null && isWallet(caller)) return { subscriptions: [] };
    const listener = await actingListener(env, caller, "list_subscriptions");
    const rows = await database(env).query.agentFeeds.findMany({
      where: and(eq(agentFeeds.listenerId, listener.id), eq(agentFeeds.agentKey, caller.agentKey)),
    });
    if (rows.length === 0) return { subscriptions: [] };
    const url = feedUrl(env, await privateFeedToken(env, listener));
    return {
      subscriptions: rows.map((r) => ({
        feed_url: url,
        verticals: r.verticals,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      })),
    };
  },
});
