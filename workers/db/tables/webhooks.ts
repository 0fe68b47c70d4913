import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/** What happened to a delivery: waiting for its next attempt, received (2xx), or given up on. */
export const DELIVERY_STATES = ["pending", "delivered", "failed"] as const;

/**
 * A publisher's outbound webhook endpoint (docs/publishers.md "Webhooks"). Signing needs the secret
 * itself, so it is stored encrypted (AES-GCM under TOKEN_ENCRYPTION_KEY) and shown once, at creation.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    publisher: text("publisher").notNull(),
    url: text("url").notNull(),
    /** The event types it receives, a JSON array. */
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    secretEncrypted: text("secret_encrypted").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_endpoints_publisher_idx").on(t.publisher)],
);

/** One event for one endpoint: its Standard Webhooks message id, the payload sent, and how its attempts went. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id").notNull(),
    publisher: text("publisher").notNull(),
    event: text("event").notNull(),
    payload: text("payload").notNull(),
    state: text("state", { enum: DELIVERY_STATES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    deliveredAt: integer("delivered_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("webhook_deliveries_publisher_idx").on(t.publisher, t.createdAt)],
);
