import { drizzle } from "drizzle-orm/d1";
import * as agents from "./tables/agents";
import * as articles from "./tables/articles";
import * as ledger from "./tables/ledger";
import * as listeners from "./tables/listeners";
import * as mail from "./tables/mail";
import * as narration from "./tables/narration";
import * as publishers from "./tables/publishers";
import * as web from "./tables/web";
import * as x402 from "./tables/x402";

export * from "./tables/agents";
export * from "./tables/articles";
export * from "./tables/ledger";
export * from "./tables/listeners";
export * from "./tables/mail";
export * from "./tables/narration";
export * from "./tables/publishers";
export * from "./tables/web";
export * from "./tables/x402";

export const schema = { ...agents, ...articles, ...ledger, ...listeners, ...mail, ...narration, ...publishers, ...web, ...x402 };

/** The drizzle client over the D1 binding. */
export function database(env: Pick<Env, "DB">) {
  return drizzle(env.DB, { schema });
}

export type Database = ReturnType<typeof database>;

/** D1 binds at most 100 parameters per statement: lists bound with IN go in parts of this size. */
export const D1_IN_LIST = 90;

/** `items` in consecutive parts of at most `size`. */
export function chunks<T>(items: readonly T[], size = D1_IN_LIST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
