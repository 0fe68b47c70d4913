import { eq, inArray, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import { apiCallerOf, mayActFor } from "../core/auth";
import { ApiError } from "../core/errors";
import { articles, database, preparedOnce, renderJobs } from "../db";
import { HELD_JOB_STATES } from "./review-gate";

/**
 * Who may fetch the audio stored under a key (GET /v1/audio/{key}.{format}). Keys are content
 * addresses, stable forever, and the key of a publisher_only stub's narration was published in
 * listings before issue 29 (item 3): withholding it everywhere now does not take back a URL already
 * copied. So the audio path itself refuses a key when every article it narrates is a publisher_only
 * stub (kernel/visibility.ts: a stub's narration reaches only its publisher and the operator), unless
 * the request carries the API key of the operator or of one of those publishers.
 *
 * The price is one indexed lookup for a request the isolate's copy does not answer; copies and edge
 * entries are only ever kept of audio anyone may fetch. Audio that also narrates a public article is
 * public whatever else it narrates (the same text in the same voice). A listener_private article's
 * audio stays fetchable by its key: podcast apps fetch the enclosures of a private feed without a
 * credential, and its key, a hash of the listener's own text, is listed only in the owner's feeds.
 * R2_PUBLIC_URL makes every object of the bucket public, stubs' included: a platform with
 * paywalled publishers leaves it unset (presigned redirects are issued after this check).
 */

/**
 * The visibility and publisher of every article whose audio, current or rendered earlier, is stored
 * under a key, and whether that narration is held for review (review-gate.ts): a held job's
 * audio is its publisher's only until an editor releases it.
 */
const narratedBy = preparedOnce((db) => {
  const key = sql.placeholder("key");
  const current = db
    .select({ visibility: articles.visibility, publisher: articles.publisher, held: sql<number>`0` })
    .from(articles)
    .where(eq(articles.audioKey, key));
  const rendered = db
    .select({ visibility: articles.visibility, publisher: articles.publisher, held: sql<number>`${inArray(renderJobs.state, HELD_JOB_STATES)}` })
    .from(renderJobs)
    .innerJoin(articles, eq(articles.id, renderJobs.articleId))
    .where(eq(renderJobs.audioKey, key));
  return unionAll(current, rendered).prepare();
});

/**
 * Refuses the audio of `key` as an unknown key (404, docs/articles.md "Visibility": not 403) when it narrates
 * only publisher_only stubs or narrations held for review, and the request holds no API key of the operator or of their publishers.
 * `shared`: anyone may fetch it, so caches may keep it.
 */
export async function requireAudioAccess(env: Env, request: Request, url: URL, key: string): Promise<{ shared: boolean }> {
  const owners = await narratedBy(database(env)).all({ key });
  if (owners.length === 0 || owners.some((o) => o.visibility !== "publisher_only" && !o.held)) return { shared: true };
  const caller = await apiCallerOf(env, request, url);
  if (caller && owners.some((o) => mayActFor(caller, o.publisher))) return { shared: false };
  throw new ApiError("not_found", "no audio with that key");
}
