import type { articles } from "./tables/articles";
import type { renderJobs } from "./tables/narration";

/** One article as drizzle reads it (camelCase columns, dates as Date): the type every domain passes around. */
export type ArticleRow = typeof articles.$inferSelect;

/** One render job as drizzle reads it. */
export type JobRow = typeof renderJobs.$inferSelect;
