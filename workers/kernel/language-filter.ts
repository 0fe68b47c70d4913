import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * The SQL condition "`column` is in `language`": the tag itself, and with no region any region of it
 * ("pt" is pt and pt-BR), as a voice speaks a language (kernel/language.ts speaks). Feeds and search
 * narrow by it. A module of its own, free of the Worker's imports, so the search bench can load it
 * (bench/search.bench.mjs).
 */
export function narratedIn(column: SQLWrapper, language: string): SQL {
  return language.includes("-") ? sql`${column} = ${language}` : sql`(${column} = ${language} or ${column} like ${`${language}-%`})`;
}
