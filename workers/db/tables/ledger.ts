import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { articles } from "./articles";
import { createdAt } from "./columns";
import { listeners } from "./listeners";
import { x402Calls } from "./x402";

export const LEDGER_PARTIES = ["publisher", "agent_recommender", "platform"] as const;

export const plays = sqliteTable(
  "plays",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id),
    listenerId: integer("listener_id").references(() => listeners.id, { onDelete: "set null" }),
    agentId: text("agent_id"),
    seconds: integer("seconds").notNull().default(0),
    amountMicros: integer("amount_micros").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("plays_article_created_idx").on(t.articleId, t.createdAt)],
);

/** One allocation leg of a play or of a paid agent call (x402), or a standalone entry such as a paywall click-through. */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    playId: integer("play_id").references(() => plays.id),
    /** The paid agent tool call (x402) this leg belongs to; null for plays and standalone entries. */
    x402CallId: integer("x402_call_id").references(() => x402Calls.id),
    listenerId: integer("listener_id").references(() => listeners.id, { onDelete: "set null" }),
    publisher: text("publisher").notNull(),
    party: text("party", { enum: LEDGER_PARTIES }),
    source: text("source").notNull(),
    amountMicros: integer("amount_micros").notNull(),
    createdAt: createdAt(),
  },
  // ledger_created_idx serves the admin report's period scans (GET /v1/admin/ledger/report).
  (t) => [index("ledger_listener_publisher_idx").on(t.listenerId, t.publisher, t.createdAt), index("ledger_created_idx").on(t.createdAt)],
);
