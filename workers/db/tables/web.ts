import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { listeners } from "./listeners";

/**
 * A signed-in browser on the web front-end (workers/core/web-session.ts). The cookie holds a random
 * secret; only its SHA-256 is stored, so a copy of the database signs nobody in. No ON DELETE
 * CASCADE (see listeners.ts): deleting a listener removes their sessions in the same batch.
 */
export const webSessions = sqliteTable(
  "web_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull().unique(),
    listenerId: integer("listener_id")
      .notNull()
      .references(() => listeners.id),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("web_sessions_listener_idx").on(t.listenerId), index("web_sessions_expires_idx").on(t.expiresAt)],
);
