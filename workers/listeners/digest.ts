import { and, eq, gt, isNull, lte, or } from "drizzle-orm";
import * as v from "valibot";
import { named } from "../core/schema-registry";
import { articles, database, listeners } from "../db";
import { escapeHtml } from "../core/text";
import { htmlDocument, type MailMessage } from "../mail/message";
import { mailer } from "../mail/mailer";
import { privateFeedToken } from "./account";
import { articlePageUrl, privateFeedUrl } from "../kernel/public-urls";
import { articlesWithStatus, ofListener, resolvedAudioUrl, type ListenerArticle } from "./listener-articles";
import type { Listener } from "../kernel/listener-tokens";
import { unsubscribeUrl } from "./unsubscribe-link";

/** The digest's entry in [triggers] crons of wrangler.toml; the scheduled handler dispatches on it. */
export const DIGEST_CRON = "0 7 * * *";

/** docs/rules.md "Rules" 8: a listener sent a digest less than 20 hours ago is skipped silently. */
export const DIGEST_GUARD_MS = 20 * 60 * 60 * 1000;
/** Articles per digest, and how far back a first digest looks. */
const DIGEST_SIZE = 5;
const FIRST_DIGEST_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/** What one digest run did: POST /v1/admin/digest/run answers with it. */
export const DigestRunResponse = named(
  "DigestRunResponse",
  v.object({
    mail_configured: v.pipe(v.boolean(), v.description("False: no mail provider and no outbox, so nothing was sent.")),
    considered: v.pipe(v.number(), v.description("Active listeners looked at.")),
    sent: v.number(),
    skipped_recent: v.pipe(v.number(), v.description("Listeners sent a digest under 20 hours ago (silently skipped).")),
    skipped_empty: v.pipe(v.number(), v.description("Listeners with no new article in their verticals.")),
    failed: v.pipe(v.number(), v.description("Sends the provider refused; those listeners are retried on the next run.")),
  }),
);

export type DigestSummary = v.InferOutput<typeof DigestRunResponse>;

/** "Best" first: curated articles, then ones whose audio is ready, then the newest. */
function best(items: ListenerArticle[]): ListenerArticle[] {
  return [...items]
    .sort((a, b) => Number(b.curated) - Number(a.curated) || Number(b.audioReady) - Number(a.audioReady) || b.createdAt.getTime() - a.createdAt.getTime())
    .slice(0, DIGEST_SIZE);
}

/** RFC 8058 section 3.1: mailbox providers POST this body to the List-Unsubscribe URI. */
const ONE_CLICK = "List-Unsubscribe=One-Click";

function digestMessage(env: object, listener: Listener, items: ListenerArticle[], feed: string, unsubscribe: string): MailMessage {
  const links = items.map((a) => ({ a, url: resolvedAudioUrl(env, a) ?? articlePageUrl(env, a.slug) }));
  const text = [
    "Today's best new stories for you:",
    "",
    ...links.flatMap(({ a, url }) => [`- ${a.title} (${a.publisher})`, `  Listen: ${url}`]),
    "",
    `Your private podcast feed: ${feed}`,
    `Stop these mails: ${unsubscribe}`,
  ].join("\n");
  const list = links.map(({ a, url }) => `<li><a href="${escapeHtml(url)}">${escapeHtml(a.title)}</a> <small>${escapeHtml(a.publisher)}</small></li>`).join("");
  const html = htmlDocument(
    "Your daily digest",
    `<p>Today's best new stories for you:</p><ul>${list}</ul><p>Your private podcast feed: <a href="${escapeHtml(feed)}">${escapeHtml(feed)}</a></p>` +
      `<p><small><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a> from these mails.</small></p>`,
  );
  return {
    to: listener.email,
    subject: `Your daily digest: ${items.length} new ${items.length === 1 ? "story" : "stories"}`,
    text,
    html,
    // One HTTPS URI and the one-click marker, as bulk senders must give (RFC 8058 sections 3.1, 3.2).
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": ONE_CLICK },
  };
}

/**
 * Sends each active listener a digest of the best new articles in their verticals (docs/rules.md "Rules" 6).
 * The 20-hour guard is claimed with one conditional write per listener, so two overlapping runs
 * (the cron and an admin run) never mail the same listener twice; a failed send releases the claim.
 */
export async function sendDailyDigest(env: Env, now = Date.now()): Promise<DigestSummary> {
  const summary: DigestSummary = { mail_configured: false, considered: 0, sent: 0, skipped_recent: 0, skipped_empty: 0, failed: 0 };
  const mail = mailer(env);
  if (!mail) return summary;
  summary.mail_configured = true;
  const db = database(env);
  const cutoff = new Date(now - DIGEST_GUARD_MS);
  const active = await db.select().from(listeners).where(eq(listeners.active, true));
  for (const listener of active) {
    summary.considered += 1;
    const previous = listener.lastDigestAt;
    if (previous && previous > cutoff) {
      summary.skipped_recent += 1;
      continue;
    }
    const since = previous ?? new Date(now - FIRST_DIGEST_LOOKBACK_MS);
    const items = best(await articlesWithStatus(db, listener.id, and(ofListener(listener), gt(articles.createdAt, since))!, DIGEST_SIZE * 4));
    if (items.length === 0) {
      summary.skipped_empty += 1;
      continue;
    }
    const sentAt = new Date(now);
    const claimed = await db
      .update(listeners)
      .set({ lastDigestAt: sentAt })
      .where(and(eq(listeners.id, listener.id), or(isNull(listeners.lastDigestAt), lte(listeners.lastDigestAt, cutoff))))
      .returning({ id: listeners.id });
    if (claimed.length === 0) {
      summary.skipped_recent += 1;
      continue;
    }
    const feed = privateFeedUrl(env, await privateFeedToken(env, listener));
    const result = await mail.send(digestMessage(env, listener, items, feed, await unsubscribeUrl(env, listener.id)));
    if (result.ok) {
      summary.sent += 1;
    } else {
      summary.failed += 1;
      await db
        .update(listeners)
        .set({ lastDigestAt: previous })
        .where(and(eq(listeners.id, listener.id), eq(listeners.lastDigestAt, sentAt)));
    }
  }
  return summary;
}
