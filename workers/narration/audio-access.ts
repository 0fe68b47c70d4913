import { eq, inArray, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import { apiCallerOf, mayActFor } from "../core/auth";
import { ApiError } from "../core/errors";
import { articles, database, preparedOnce, renderJobs } from "../db";
import { AUDIO_CAPABILITY_PATTERN, keyOfCapability } from "../kernel/audio-capability";
import { HELD_JOB_STATES } from "./review-gate";

/**
 * Who may fetch the audio a URL names (GET /v1/audio/{key}.{format}): the one access decision of the
 * audio route, so whatever else decides it (a download counter, a review gate) extends it here.
 *
 * A URL names audio in one of two ways (kernel/public-urls.ts AudioReach). A capability (issue 40 item 2,
 * DESIGN.md "Contracts added in turn 4") is the content key wrapped under the service's key
 * (kernel/audio-capability.ts): whoever holds it may fetch the audio, as podcast apps fetch a private
 * feed's enclosures without a credential, and nobody can make one from a guessed text. A content key,
 * a SHA-256 anyone computes from provider, voice and text, opens only audio that narrates a public
 * article (the same text in the same voice is public whatever else it narrates); any other key is
 * refused as unknown (404, docs/articles.md "Visibility": not 403) unless the request carries the API
 * key of the operator or of a publisher whose article it narrates (the API-key paths of
 * kernel/visibility.ts). Audio of no article (raw renders, sponsor pre-rolls) is reached by its
 * capability only: a publisher learns nothing of another's texts by trying keys.
 *
 * The price is one indexed lookup for a content key the isolate's copy does not answer; copies and
 * edge entries are only ever kept of public audio. R2_PUBLIC_URL makes every object of the bucket
 * public by its content path: a platform with private narration leaves it unset (docs/security.md).
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

/** What the route may serve: the content key in the store, and `shared`: anyone may fetch it, so caches may keep it. */
export interface AudioAccess {
  key: string;
  shared: boolean;
}

/**
 * The audio that `name` (a content key or a capability) opens to this request; 404 as an unknown key otherwise.
 * Narration held for review (review-gate.ts) answers only to its publisher's or the operator's API key, by either name.
 */
export async function requireAudioAccess(env: Env, request: Request, url: URL, name: string): Promise<AudioAccess> {
  const capability = AUDIO_CAPABILITY_PATTERN.test(name);
  const key = capability ? keyOfCapability(env, name) : name;
  if (key) {
    const owners = await narratedBy(database(env)).all({ key });
    const released = owners.length === 0 || owners.some((o) => !o.held);
    if (capability && released) return { key, shared: false };
    if (!capability && owners.some((o) => o.visibility === "public" && !o.held)) return { key, shared: true };
    const caller = owners.length > 0 ? await apiCallerOf(env, request, url) : null;
    if (caller && owners.some((o) => mayActFor(caller, o.publisher))) return { key, shared: false };
  }
  throw new ApiError("not_found", "no audio with that key");
}
