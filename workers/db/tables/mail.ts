import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/**
 * The local mail outbox: with MAIL_OUTBOX=true every message is stored here instead of being sent,
 * so the magic-link and digest flows work on one machine with no network.
 */
export const mailOutbox = sqliteTable("mail_outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html").notNull(),
  /** Extra header fields of the message (MailMessage.headers), as a JSON object. */
  headers: text("headers", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
  createdAt: createdAt(),
});
