import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { listeners } from "./listeners";

/**
 * Which agent set a listener's topics through subscribe_topic (docs/rules.md 4: list_subscriptions
 * answers "the feeds minted by this agent for the listener"). One row per listener and agent key
 * ("ip:<addr>", later "oauth:<client_id>" or "wallet:<address>"); no ON DELETE CASCADE, for the
 * reason given in listeners.ts: deleteListener removes these rows in its batch.
 */
export const agentFeeds = sqliteTable(
  "agent_feeds",
  {
    listenerId: integer("listener_id")
      .notNull()
      .references(() => listeners.id),
    agentKey: text("agent_key").notNull(),
    /** JSON array of the vertical slugs the agent asked for, as stored on the listener. */
    verticals: text("verticals", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.listenerId, t.agentKey] })],
);
