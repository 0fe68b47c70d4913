import { and, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import * as v from "valibot";
import { articles, database, type Database } from "../db";
import { listingColumns } from "../kernel/article-columns";
import { audioReachOf, audioUrl } from "../kernel/public-urls";
import type { Listener } from "../kernel/listener-tokens";
import { isNarratedFor, listedFor } from "../kernel/visibility";

/** Render status of an article as the listener queue reports it (docs/rules.md "Rules" 2, Render job). */
export type QueueStatus = "pending" | "rendering" | "failed" | "done";

// Correlated subqueries name the outer table in full: drizzle renders ${articles.id} as a bare "id"
// in a single-table select, which inside the subquery would mean the job's id.
/** Audio key of the newest done job of the article, if any. */
const doneKey = sql<string | null>`(select j.audio_key from render_jobs j
  where j.article_id = "articles"."id" and j.state = 'done' and j.audio_key is not null
  order by j.finished_at desc limit 1)`;
/** State of the newest job of the article, if any. */
const lastState = sql<string | null>`(select j.state from render_jobs j
  where j.article_id = "articles"."id" order by j.created_at desc limit 1)`;
/** Id of the newest job of the article, if any. */
const lastJob = sql<string | null>`(select j.id from render_jobs j
  where j.article_id = "articles"."id" order by j.created_at desc limit 1)`;

/**
 * Articles of the listener's verticals (all verticals when none is chosen) plus the articles they
 * forwarded; other listeners' private articles are never included (workers/kernel/visibility.ts).
 */
export function ofListener(listener: Listener, verticals: string[] = listener.verticals): SQL {
  const own = eq(articles.ownerListenerId, listener.id);
  const visible = listedFor(listener.id);
  if (verticals.length === 0) return visible;
  return and(visible, or(inArray(articles.vertical, verticals), own))!;
}

export interface ListenerArticle {
  id: number;
  slug: string;
  title: string;
  publisher: string;
  vertical: string;
  summary: string;
  listenSeconds: number | null;
  curated: boolean;
  createdAt: Date;
  status: QueueStatus;
  /** Whether the listener may hear this article's narration at all: false on a stub (kernel/visibility.ts). */
  hearable: boolean;
  /** State of the newest render job of the article, null when it has none or the narration is not the listener's. */
  jobState: string | null;
  /** True when the listener can play the narration now: never on a stub, whatever exists for its publisher. */
  audioReady: boolean;
  /** The audio the listener may play: null until it is ready, and on a stub, whose narration is not theirs. */
  audioKey: string | null;
  /** Its visibility: a private article's audio URL is a capability (kernel/public-urls.ts). */
  visibility: string;
  /**
   * The render job of the listener's own article (a forward or a link) while it is queued or running: its
   * stream plays from the first paragraph (docs/narration.md). Null for anyone else's article.
   */
  streamingJobId: string | null;
}

/**
 * The newest `limit` articles matching `where`, with their render status, as listener `listenerId`
 * sees them: the audio only of the articles whose narration they may have (kernel/visibility.ts).
 */
export async function articlesWithStatus(db: Database, listenerId: number, where: SQL, limit: number): Promise<ListenerArticle[]> {
  const rows = await db
    .select({
      ...listingColumns,
      curated: articles.curated,
      visibility: articles.visibility,
      ownerListenerId: articles.ownerListenerId,
      articleKey: articles.audioKey,
      doneKey,
      lastState,
      lastJob,
    })
    .from(articles)
    .where(where)
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .limit(limit);
  return rows.map(({ articleKey, doneKey: jobKey, lastState: state, lastJob: jobId, visibility, ownerListenerId, ...a }) => {
    // The done job's audio first; the article's own key covers audio stored before jobs were tracked.
    // A stub's narration and its jobs are its publisher's: to the listener it is neither ready nor rendering.
    const hearable = isNarratedFor({ visibility, ownerListenerId }, listenerId);
    const audioKey = hearable ? (jobKey ?? articleKey) : null;
    const jobState = hearable ? state : null;
    const audioReady = audioKey !== null;
    const streamingJobId = ownerListenerId === listenerId && (state === "queued" || state === "running") ? jobId : null;
    return { ...a, visibility, hearable, audioKey, audioReady, jobState, streamingJobId, status: statusOf(audioReady, jobState) };
  });
}

function statusOf(ready: boolean, state: string | null): QueueStatus {
  if (ready) return "done";
  if (state === "running") return "rendering";
  if (state === "failed" || state === "cancelled") return "failed";
  return "pending";
}

/** The playable URL of a ready article, or null. */
export function resolvedAudioUrl(env: object, a: ListenerArticle): string | null {
  return a.audioKey ? audioUrl(env, a.audioKey, "mp3", audioReachOf(a)) : null;
}

/** The fields both listings of a listener's articles show (GET /v1/listeners/{token}/feed and /queue). */
export const ListingItemEntries = {
  slug: v.string(),
  title: v.string(),
  publisher: v.string(),
  vertical: v.string(),
  audio_url: v.pipe(v.nullable(v.string()), v.description("The playable MP3 once the audio is ready.")),
  created_at: v.string(),
};

/** `a` as the common fields of a listing item. */
export function listingItem(env: object, a: ListenerArticle) {
  return {
    slug: a.slug,
    title: a.title,
    publisher: a.publisher,
    vertical: a.vertical,
    audio_url: resolvedAudioUrl(env, a),
    created_at: a.createdAt.toISOString(),
  };
}

/** The newest `limit` articles the listener's feed and queue list. */
export function newestOf(env: Pick<Env, "DB">, listener: Listener, limit: number): Promise<ListenerArticle[]> {
  return articlesWithStatus(database(env), listener.id, ofListener(listener), limit);
}
