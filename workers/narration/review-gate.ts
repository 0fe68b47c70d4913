import { and, eq, ne } from "drizzle-orm";
import { articles, type Database, publisherSettings } from "../db/index";

/**
 * Review before release (docs/publishers.md "Review before release"): the one place that decides
 * whether a finished render waits for an editor. The render store asks it when a job finishes
 * (render-store.ts); a held job ends in state `awaiting_review` instead of `done`, and the
 * article keeps the audio it had (none, for a first render). Every surface that hands out audio
 * (feeds, pages, the player, search, agent tools, render-now, GET /v1/jobs) reads only `done` jobs
 * and articles.audio_key, and the audio path refuses a key that only held jobs narrate
 * (audio-access.ts), so nothing more is needed for the audio to reach no one but the publisher.
 * A listener's own forwarded article (listener_private) is never held: it is theirs, not the publisher's.
 */
export async function heldForReview(db: Database, articleId: number): Promise<boolean> {
  const [row] = await db
    .select({ held: publisherSettings.reviewBeforeRelease })
    .from(articles)
    .innerJoin(publisherSettings, eq(publisherSettings.publisher, articles.publisher))
    .where(and(eq(articles.id, articleId), ne(articles.visibility, "listener_private")));
  return row?.held === true;
}

/** Job states whose audio waits on an editor's decision: their audio keys are the publisher's only. */
export const HELD_JOB_STATES = ["awaiting_review", "rejected"] as const;
