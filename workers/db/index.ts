import { drizzle } from "drizzle-orm/d1";
import * as agents from "./tables/agents";
import * as articles from "./tables/articles";
import * as lexicon from "./tables/lexicon";
import * as ledger from "./tables/ledger";
import * as listeners from "./tables/listeners";
import * as listening from "./tables/listening";
import * as mail from "./tables/mail";
import * as narration from "./tables/narration";
import * as publishers from "./tables/publishers";
import * as studio from "./tables/studio";
import * as web from "./tables/web";
import * as webhooks from "./tables/webhooks";
import * as x402 from "./tables/x402";

export * from "./tables/agents";
export * from "./tables/articles";
export * from "./tables/lexicon";
export * from "./tables/ledger";
export * from "./tables/listeners";
export * from "./tables/listening";
export * from "./tables/mail";
export * from "./tables/narration";
export * from "./tables/publishers";
export * from "./tables/studio";
export * from "./tables/web";
export * from "./tables/webhooks";
export * from "./tables/x402";
export type { ArticleRow, JobRow } from "./rows";

export const schema = {
  ...agents,
  ...articles,
  ...lexicon,
  ...ledger,
  ...listeners,
  ...listening,
  ...mail,
  ...narration,
  ...publishers,
  ...studio,
  ...web,
  ...webhooks,
  ...x402,
};

const connect = (db: D1Database) => drizzle(db, { schema });

export type Database = ReturnType<typeof connect>;

/** `build(key)` once per key for the isolate's life. */
function oncePer<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const built = new WeakMap<K, V>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) {
      value = build(key);
      built.set(key, value);
    }
    return value;
  };
}

// One client per binding for the isolate's life: building one walks the whole schema for its
// relations, which the profile of every D1 path showed (bench/README.md, "Where the time went").
const clientOf = oncePer(connect);

/** The drizzle client over the D1 binding. */
export function database(env: Pick<Env, "DB">): Database {
  return clientOf(env.DB);
}

/**
 * A statement built once per client and run with `sql.placeholder` values: drizzle otherwise renders
 * a query's SQL on every call, which was the largest share of a one-row read in the get_article
 * profile (bench/README.md, "Where the time went").
 */
export function preparedOnce<T>(build: (db: Database) => T): (db: Database) => T {
  return oncePer(build);
}

/** D1 binds at most 100 parameters per statement: lists bound with IN go in parts of this size. */
export const D1_IN_LIST = 90;

/** `items` in consecutive parts of at most `size`. */
export function chunks<T>(items: readonly T[], size = D1_IN_LIST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
