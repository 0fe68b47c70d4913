import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
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

/**
 * A get_audio_url call made as an MCP task (docs/agents/tasks.md "Long renders as tasks"). The MCP surface is
 * stateless, so the task lives here; its work is the render job. `id` is the taskId: random, never the
 * job id, since job ids are shown to anyone who asks for the article's audio. `owner` is the
 * authorization context that created it (`oauth:<client_id>:<listener_id>`), null for a caller without
 * a token, whose task the id alone opens. `listenerId` and `paid` are the caller the audio is made for
 * (the sponsor pre-roll), so tasks/result answers as the call would have, without a payment. No foreign
 * keys: a row outlives neither its hour nor a deleted listener's plan lookup, and blocks no job cleanup.
 */
export const mcpTasks = sqliteTable(
  "mcp_tasks",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id").notNull(),
    owner: text("owner"),
    slug: text("slug").notNull(),
    listenerId: integer("listener_id"),
    paid: integer("paid", { mode: "boolean" }).notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    cancelledAt: integer("cancelled_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("mcp_tasks_owner").on(t.owner, t.createdAt)],
);
