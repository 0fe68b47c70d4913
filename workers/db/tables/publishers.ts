import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/**
 * A publisher's API key (docs/security.md "Publisher keys"): `Authorization: Bearer <key>` on render, jobs and plays, scoped
 * to that publisher's articles. Only the key's SHA-256 is stored; the prefix names it in lists and logs.
 */
export const publisherKeys = sqliteTable(
  "publisher_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publisher: text("publisher").notNull(),
    prefix: text("prefix").notNull().unique(),
    keyHash: text("key_hash").notNull().unique(),
    createdAt: createdAt(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("publisher_keys_publisher_idx").on(t.publisher)],
);

/**
 * A publisher's own signing secret for the publish webhook. HMAC verification needs the secret
 * itself, so it is stored encrypted (AES-GCM under TOKEN_ENCRYPTION_KEY), never in the clear.
 */
export const publisherWebhookSecrets = sqliteTable("publisher_webhook_secrets", {
  publisher: text("publisher").primaryKey(),
  prefix: text("prefix").notNull(),
  secretEncrypted: text("secret_encrypted").notNull(),
  createdAt: createdAt(),
});
