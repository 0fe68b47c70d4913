import * as v from "valibot";
import { ApiError } from "../core/errors";
import type { Database } from "../db";
import { listenerByToken, type Listener } from "../kernel/listener-tokens";

/** The optional listener_token of public reads (docs/rules.md "Rules" 8: at most 64 characters). */
export const ListenerTokenParam = v.pipe(
  v.string(),
  v.maxLength(64),
  v.description("Listener token: shows the caller's own listener_private articles and personalizes the feed."),
);

/**
 * The listener behind an optional token. A token that matches nobody is a 404, as for every
 * listener path (docs/rules.md "Rules" 7), so a stale token is noticed instead of silently ignored. An
 * inactive listener is a listener like any other: `active` only stops the daily digest.
 */
export async function viewer(db: Database, token: string | undefined): Promise<Listener | null> {
  if (!token) return null;
  const listener = await listenerByToken(db, token);
  if (!listener) throw new ApiError("not_found", "unknown listener token");
  return listener;
}

/**
 * The listener behind an optional token of a public listing, or null for anyone else. A token that
 * matches nobody reads as anonymous, so the answer never tells whether a token exists (docs/rules.md "Rules"
 * part 4, feed rule 2: no taste vector falls back to recency).
 */
export async function listingViewer(db: Database, token: string | undefined): Promise<Listener | null> {
  if (!token) return null;
  const listener = await listenerByToken(db, token);
  return listener?.active ? listener : null;
}
