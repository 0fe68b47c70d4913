import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/** What a member of a publisher may do in the studio: a viewer sees; an editor also acts (docs/publishers.md "Members and roles"). */
export const MEMBER_ROLES = ["editor", "viewer"] as const;

/** A person (by e-mail address) who may sign in to one publisher's studio, and with which role. */
export const publisherMembers = sqliteTable(
  "publisher_members",
  {
    publisher: text("publisher").notNull(),
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.publisher, t.email] }), index("publisher_members_email_idx").on(t.email)],
);

/** A publisher's settings; a publisher without a row has the defaults (review off: SPEC.md's flow). */
export const publisherSettings = sqliteTable("publisher_settings", {
  publisher: text("publisher").primaryKey(),
  reviewBeforeRelease: integer("review_before_release", { mode: "boolean" }).notNull().default(false),
  /** Language tag -> the voice that speaks it when a narration asks for none (docs/publishers.md "Default voice per language"). */
  defaultVoices: text("default_voices", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
});

/**
 * A signed-in studio browser (core/studio-session.ts): as web_sessions, the cookie holds a random
 * secret and only its SHA-256 is stored. Bound to an address, not a publisher: what it may see is
 * decided per request from publisher_members, so removing a member takes effect at once.
 */
export const studioSessions = sqliteTable(
  "studio_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull().unique(),
    email: text("email").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("studio_sessions_email_idx").on(t.email), index("studio_sessions_expires_idx").on(t.expiresAt)],
);
