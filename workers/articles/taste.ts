import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { articles, listeners, plays, type Database } from "../db";
import type { Listener } from "../kernel/listener-tokens";
import { LISTENER_VERTICALS } from "../kernel/verticals";
import { HOSTS } from "../kernel/hosts";

/**
 * Taste vectors for the personalized stories feed (docs/rules.md "Rules" 4, feed rule 2). Vectorize is not
 * bound, so vectors live in D1 (listeners.taste_vector) over a small fixed space: one dimension
 * per known topic slug, one for any other topic, and one per host persona. An article's vector is
 * one-hot on its vertical and on its host, so the cosine with a taste vector is a sum of two
 * table lookups that SQL can rank with.
 */

// Dimensions follow the catalog order, so a stored vector means what it did while both lists keep
// their order; after a change, the next personalized request rebuilds it.
export const TOPICS = LISTENER_VERTICALS.map((v) => v.slug);
const OTHER_TOPIC = TOPICS.length;
const HOST_BASE = TOPICS.length + 1;
export const DIMENSIONS = HOST_BASE + HOSTS.length;

const SUBSCRIBED_WEIGHT = 1;
const PINNED_WEIGHT = 1;
const PLAY_WEIGHT = 0.25;
const FORWARD_WEIGHT = 0.5;
const RECENT_SIGNALS = 200;

const topicIndex = (vertical: string) => {
  const i = TOPICS.indexOf(vertical === "parenting" ? "young_moms" : vertical);
  return i >= 0 ? i : OTHER_TOPIC;
};
const hostIndex = (host: string | null) => {
  const i = host ? (HOSTS as readonly string[]).indexOf(host) : -1;
  return i >= 0 ? HOST_BASE + i : null;
};

/** Adds an article's unit vector times `weight` to `into`. */
function addArticle(into: number[], a: { vertical: string; host: string | null }, weight: number) {
  const host = hostIndex(a.host);
  const share = host === null ? weight : weight * Math.SQRT1_2;
  into[topicIndex(a.vertical)] += share;
  if (host !== null) into[host] += share;
}

/** Unit-length taste from subscribed verticals, pinned vertical, recent plays and forwards; null without any signal. */
export function tasteFrom(signals: {
  verticals: string[];
  pinned: string | null;
  played: { vertical: string; host: string | null }[];
  forwarded: { vertical: string; host: string | null }[];
}): number[] | null {
  const t = new Array<number>(DIMENSIONS).fill(0);
  for (const vertical of signals.verticals) t[topicIndex(vertical)] += SUBSCRIBED_WEIGHT;
  if (signals.pinned) t[topicIndex(signals.pinned)] += PINNED_WEIGHT;
  for (const a of signals.played) addArticle(t, a, PLAY_WEIGHT);
  for (const a of signals.forwarded) addArticle(t, a, FORWARD_WEIGHT);
  const norm = Math.hypot(...t);
  return norm > 0 ? t.map((x) => Math.round((x / norm) * 1e6) / 1e6) : null;
}

/**
 * Rebuilds a listener's taste vector from `listener` (the row the caller already loaded) and its
 * recent plays and forwards; call after signals change (forward, play, preferences). The row is
 * written only when the vector changed, so the feed's background refresh costs no write.
 */
export async function refreshTasteVector(db: Database, listener: Listener): Promise<number[] | null> {
  const listenerId = listener.id;
  const topicOf = { vertical: articles.vertical, host: articles.host };
  const [played, forwarded] = await Promise.all([
    db
      .select(topicOf)
      .from(plays)
      .innerJoin(articles, eq(articles.id, plays.articleId))
      .where(eq(plays.listenerId, listenerId))
      .orderBy(desc(plays.createdAt))
      .limit(RECENT_SIGNALS),
    db
      .select(topicOf)
      .from(articles)
      .where(and(eq(articles.ownerListenerId, listenerId), eq(articles.visibility, "listener_private")))
      .orderBy(desc(articles.createdAt))
      .limit(RECENT_SIGNALS),
  ]);
  const vector = tasteFrom({ verticals: listener.verticals, pinned: listener.preferredVertical, played, forwarded });
  if (JSON.stringify(vector) !== JSON.stringify(listener.tasteVector)) {
    await db.update(listeners).set({ tasteVector: vector }).where(eq(listeners.id, listenerId));
  }
  return vector;
}

/** A finite number as SQL text; taste vectors come from our own column, never from a request. */
const lit = (x: number | undefined) => String(typeof x === "number" && Number.isFinite(x) ? x : 0);
const num = (x: number | undefined) => sql.raw(lit(x));

/**
 * Cosine similarity of each article with `taste` as a SQL expression. Both vectors are unit
 * length, so the dot product is the cosine. Slugs and weights are inlined (D1 allows 100 bound
 * parameters per statement, and this expression repeats them).
 */
export function similarityExpr(taste: number[]): SQL {
  const topicCases = TOPICS.map((slug, i) => sql.raw(`when '${slug}' then ${lit(taste[i])}`));
  const hostCases = HOSTS.map((slug, i) => sql.raw(`when '${slug}' then ${lit(taste[HOST_BASE + i])}`));
  const topic = sql`(case ${articles.vertical} ${sql.join(topicCases, sql` `)} else ${num(taste[OTHER_TOPIC])} end)`;
  const host = sql`(case ${articles.host} ${sql.join(hostCases, sql` `)} else null end)`;
  return sql`(case when ${host} is null then ${topic} else (${topic} + ${host}) * ${num(Math.SQRT1_2)} end)`;
}
