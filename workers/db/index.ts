import { drizzle } from "drizzle-orm/d1";
import * as articles from "./tables/articles";
import * as ledger from "./tables/ledger";
import * as listeners from "./tables/listeners";
import * as mail from "./tables/mail";
import * as narration from "./tables/narration";
import * as web from "./tables/web";

export * from "./tables/articles";
export * from "./tables/ledger";
export * from "./tables/listeners";
export * from "./tables/mail";
export * from "./tables/narration";
export * from "./tables/web";

export const schema = { ...articles, ...ledger, ...listeners, ...mail, ...narration, ...web };

/** The drizzle client over the D1 binding. */
export function database(env: Pick<Env, "DB">) {
  return drizzle(env.DB, { schema });
}

export type Database = ReturnType<typeof database>;
