import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Listening numbers (docs/publishers.md "Listening numbers"). No table holds an address: a listener is
 * the SHA-256 of a day's salt, the address and the user agent (kernel/listener-hash.ts), and a salt is
 * deleted two days after its day, after which nothing links a hash to anyone.
 */

/** The random salt of one UTC day (YYYY-MM-DD). */
export const listenerSalts = sqliteTable("listener_salts", {
  day: text("day").primaryKey(),
  salt: text("salt").notNull(),
});

/**
 * One listener's 24 hours with one episode (IAB Podcast Measurement 2.2): opened by its first request,
 * counted once (`counted_by`, the claim of the request that reached a minute of audio). Pruned after 48 hours.
 */
export const downloadWindows = sqliteTable(
  "download_windows",
  {
    listenerHash: text("listener_hash").notNull(),
    articleId: integer("article_id").notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    /** The app its user agent names (kernel/podcast-app-names.ts). */
    app: text("app").notNull(),
    countedBy: text("counted_by"),
  },
  (t) => [primaryKey({ columns: [t.listenerHash, t.articleId] }), index("download_windows_started_idx").on(t.startedAt)],
);

/** The bytes one request of a window carried: a window counts the union of its spans. */
export const downloadSpans = sqliteTable(
  "download_spans",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    listenerHash: text("listener_hash").notNull(),
    articleId: integer("article_id").notNull(),
    firstByte: integer("first_byte").notNull(),
    lastByte: integer("last_byte").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("download_spans_window_idx").on(t.listenerHash, t.articleId), index("download_spans_created_idx").on(t.createdAt)],
);

/** An embed player's start or completion, once per listener, article and event in a day. Pruned after 48 hours. */
export const beaconMarks = sqliteTable(
  "beacon_marks",
  {
    listenerHash: text("listener_hash").notNull(),
    articleId: integer("article_id").notNull(),
    event: text("event").notNull(),
    claim: text("claim").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.listenerHash, t.articleId, t.event] }), index("beacon_marks_created_idx").on(t.createdAt)],
);

/** The day's counts of one article by app: what GET /v1/publishers/{publisher}/stats sums. */
export const listeningDays = sqliteTable(
  "listening_days",
  {
    publisher: text("publisher").notNull(),
    day: text("day").notNull(),
    articleId: integer("article_id").notNull(),
    app: text("app").notNull(),
    downloads: integer("downloads").notNull().default(0),
    starts: integer("starts").notNull().default(0),
    completions: integer("completions").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.publisher, t.day, t.articleId, t.app] })],
);

/** Who downloaded anything of a publisher on a day, as that day's hash: the day's `listeners` is their count. */
export const dailyListeners = sqliteTable(
  "daily_listeners",
  {
    publisher: text("publisher").notNull(),
    day: text("day").notNull(),
    listenerHash: text("listener_hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.publisher, t.day, t.listenerHash] })],
);
