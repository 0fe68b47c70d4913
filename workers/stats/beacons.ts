import { randomToken } from "../core/crypto";
import { isListener } from "../kernel/download-count";
import { listenerHashes } from "../kernel/listener-hash";
import { appName } from "../kernel/podcast-app-names";

/**
 * The embed player's beacons (docs/publishers.md "Listening numbers"): a start when playback first
 * begins, a completion when it reaches the end. Each counts once per listener (the day's hash of
 * address and user agent), article and event in a UTC day, so a replay or a reload adds nothing;
 * bots count never.
 */

export const BEACON_EVENTS = ["start", "complete"] as const;
export type BeaconEvent = (typeof BEACON_EVENTS)[number];

const COLUMN: Record<BeaconEvent, string> = { start: "starts", complete: "completions" };

/** Counts one beacon for the article `slug`; nothing for an unknown article or a bot. */
export async function recordBeacon(env: Pick<Env, "DB">, slug: string, event: BeaconEvent, address: string, userAgent: string, at: Date): Promise<void> {
  if (!isListener(userAgent)) return;
  const db = env.DB;
  const article = await db.prepare("SELECT id, publisher FROM articles WHERE slug = ?").bind(slug).first<{ id: number; publisher: string }>();
  if (!article) return;
  const who = await listenerHashes(env, address, userAgent, at);
  // The mark and the count in one batch: the count only when this request's mark was the one written.
  const claim = randomToken(12);
  const column = COLUMN[event];
  await db.batch([
    db
      .prepare("INSERT INTO beacon_marks (listener_hash, article_id, event, claim, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
      .bind(who.today, article.id, event, claim, at.getTime()),
    db
      .prepare(
        `INSERT INTO listening_days (publisher, day, article_id, app, ${column}) SELECT ?, ?, ?, ?, 1 ` +
          "WHERE EXISTS (SELECT 1 FROM beacon_marks WHERE listener_hash = ? AND article_id = ? AND event = ? AND claim = ?) " +
          `ON CONFLICT (publisher, day, article_id, app) DO UPDATE SET ${column} = ${column} + 1`,
      )
      .bind(article.publisher, who.day, article.id, appName(userAgent), who.today, article.id, event, claim),
  ]);
}
