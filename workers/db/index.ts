import { drizzle } from "drizzle-orm/d1";
import * as agents from "./tables/agents";
import * as articles from "./tables/articles";
import * as ledger from "./tables/ledger";
import * as listeners from "./tables/listeners";
import * as mail from "./tables/mail";
import * as narration from "./tables/narration";

export * from "./tables/agents";
export * from "./tables/articles";
export * from "./tables/ledger";
export * from "./tables/listeners";
export * from "./tables/mail";
export * from "./tables/narration";

export const schema = { ...agents, ...articles, ...ledger, ...listeners, ...mail, ...narration };

/** The drizzle client over the D1 binding. */
export function database(env: Pick<Env, "DB">) {
  return drizzle(env.DB, { schema });
}

export type Database = ReturnType<typeof database>;
