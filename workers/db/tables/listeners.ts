import { index, integer, sqliteTable, text, primaryKey } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/** listener and admin: sign-in secrets; intake: the proof that a listener owns the mailbox of their intake address. */
export const MAGIC_SCOPES = ["listener", "admin", "intake", "studio"] as const;
/** Listener plans: free listens through agents with a sponsor pre-roll; plus and pro get bare audio. */
export const PLANS = ["free", "plus", "pro"] as const;

/**
 * A listener subscription. Tokens are credentials: only their SHA-256 (for lookup) and an
 * encrypted copy (to hand back, e.g. at magic-link exchange) are stored.
 */
export const listeners = sqliteTable(
  "listeners",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull().unique(),
    tokenHash: text("token_hash").notNull().unique(),
    tokenEncrypted: text("token_encrypted").notNull(),
    privateFeedTokenHash: text("private_feed_token_hash").unique(),
    privateFeedTokenEncrypted: text("private_feed_token_encrypted"),
    /** JSON array of vertical slugs. */
    verticals: text("verticals", { mode: "json" }).$type<string[]>().notNull().default([]),
    preferredVertical: text("preferred_vertical"),
    walletAddress: text("wallet_address"),
    plan: text("plan", { enum: PLANS }).notNull().default("free"),
    timezone: text("timezone").notNull().default("UTC"),
    intakeListenerEmail: text("intake_listener_email").unique(),
    /** When the intake address's mailbox confirmed it (a mailed single-use link); null until then. */
    intakeEmailConfirmedAt: integer("intake_email_confirmed_at", { mode: "timestamp_ms" }),
    /** When the intake address was named; unconfirmed past a link's lifetime, the claim lapses (listeners/intake-address.ts). */
    intakeEmailClaimedAt: integer("intake_email_claimed_at", { mode: "timestamp_ms" }),
    /** When the listener first proved the address by a magic-link sign-in; credentials minted before it were replaced then. */
    emailProvenAt: integer("email_proven_at", { mode: "timestamp_ms" }),
    /** SHA-256 of the Idempotency-Key of the subscribe that created the row: only a repeat carrying it gets the token. */
    subscribeKeyHash: text("subscribe_key_hash"),
    /** When a repeat subscribe last mailed a sign-in link: one such mail per address per SIGN_IN_MAIL_INTERVAL_MS. */
    signInMailedAt: integer("sign_in_mailed_at", { mode: "timestamp_ms" }),
    /** JSON array of numbers: the taste vector for personalized ranking. */
    tasteVector: text("taste_vector", { mode: "json" }).$type<number[]>(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    firstRenderDoneAt: integer("first_render_done_at", { mode: "timestamp_ms" }),
    lastDigestAt: integer("last_digest_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("listeners_active_idx").on(t.active)],
);

export const alphaSignups = sqliteTable("alpha_signups", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull().unique(),
  name: text("name"),
  note: text("note"),
  createdAt: createdAt(),
});

/** A single-use secret sent by e-mail, looked up by its SHA-256 (docs/rules.md "Rules" 2). */
export const magicTokens = sqliteTable("magic_tokens", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  tokenHash: text("token_hash").notNull().unique(),
  scope: text("scope", { enum: MAGIC_SCOPES }).notNull(),
  email: text("email").notNull(),
  listenerId: integer("listener_id").references(() => listeners.id),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
  createdAt: createdAt(),
});

/* Children of listeners carry no ON DELETE CASCADE: D1 ignores PRAGMA foreign_keys=OFF, so a
   migration that rebuilds the listeners table would wipe them. The delete endpoint removes them
   explicitly in the same batch. */
/** A listener's override of one default flo block. */
export const floOverrides = sqliteTable(
  "flo_overrides",
  {
    listenerId: integer("listener_id")
      .notNull()
      .references(() => listeners.id),
    blockId: text("block_id").notNull(),
    /** JSON array of article slugs in the listener's drag-drop order. */
    manualOrder: text("manual_order", { mode: "json" }).$type<string[]>(),
    verticals: text("verticals", { mode: "json" }).$type<string[]>(),
    tone: text("tone"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [primaryKey({ columns: [t.listenerId, t.blockId] })],
);
