/**
 * Feed paths needed outside the feed builders. No imports: the listener account module builds
 * feed URLs with these, and the feed builders depend on the listener modules.
 */

/** Canonical path of the private feed of feed token `token`. */
export function privateFeedPath(token: string): string {
  return `/v1/podcasts/u/${encodeURIComponent(token)}.xml`;
}
