import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, nowMs } from "./columns";

/**
 * The pronunciation lexicon (docs/narration-api.md "Pronunciation lexicon", kernel/lexicon.ts): one entry per
 * grapheme and scope. `publisher` is the publisher whose articles the entry applies to, or "" for the
 * global lexicon, which applies to every narration (a publisher's entry wins over a global one).
 */
export const lexiconEntries = sqliteTable(
  "lexicon_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publisher: text("publisher").notNull().default(""),
    grapheme: text("grapheme").notNull(),
    /** IPA transcription, or null. */
    phoneme: text("phoneme"),
    /** Words to say instead, or null; at least one of phoneme and alias is set. */
    alias: text("alias"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex("lexicon_entries_publisher_grapheme_idx").on(t.publisher, t.grapheme)],
);
