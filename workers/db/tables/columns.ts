import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

/** D1's clock in milliseconds since the epoch, as SQL. */
export const nowMs = sql`(cast(unixepoch('subsecond') * 1000 as integer))`;

/** Creation time in milliseconds since the epoch, set by D1. */
export const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(nowMs);
