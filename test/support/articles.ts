import { env } from "cloudflare:test";
import { articles, database, listeners } from "../../workers/db/index";
import { mintToken } from "../../workers/kernel/listener-tokens";

type NewArticle = typeof articles.$inferInsert;

let serial = 0;

/** Inserts an article with plausible defaults; `over` sets the fields a test cares about. */
export async function addArticle(over: Partial<NewArticle> = {}): Promise<typeof articles.$inferSelect> {
  serial += 1;
  const [row] = await database(env)
    .insert(articles)
    .values({
      slug: `article-${serial}`,
      title: `Article ${serial}`,
      publisher: "Example Times",
      vertical: "tech",
      summary: "",
      bodyText: "Plain body text.",
      contentHash: `hash-${serial}`,
      ...over,
    })
    .returning();
  return row;
}

/** A listener with a known token. */
export async function addListener(over: Partial<typeof listeners.$inferInsert> = {}): Promise<{ listener: typeof listeners.$inferSelect; token: string }> {
  serial += 1;
  const minted = await mintToken(env);
  const [listener] = await database(env)
    .insert(listeners)
    .values({ email: `listener-${serial}@example.test`, tokenHash: minted.hash, tokenEncrypted: minted.encrypted, ...over })
    .returning();
  return { listener, token: minted.token };
}

/** Records `count` plays of an article at `at`. */
export async function addPlays(articleId: number, count: number, at = new Date(), listenerId: number | null = null) {
  // One statement with a recursive row generator: D1 binds at most 100 variables per statement.
  await env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
     insert into plays (article_id, listener_id, seconds, amount_micros, created_at) select ?, ?, 30, 0, ? from n`,
  )
    .bind(count, articleId, listenerId, at.getTime())
    .run();
}

export const HOUR = 3_600_000;
