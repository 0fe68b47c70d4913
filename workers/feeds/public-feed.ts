import { ApiError } from "../core/errors";
import type { FeedDefinition } from "./catalog";
import { publicFeedItems } from "./feed-items";
import { conditional, entityTag } from "../core/conditional";
import { cacheMatch, cachePut } from "../core/edge-cache";
import { feedResponse, forReader, RSS_CONTENT_TYPE, type FeedBody } from "./feed-response";
import { feedUnavailable } from "../kernel/feed-paths";
import { itemFileUrls } from "../kernel/public-urls";
import { renderRss } from "./rss";

/**
 * Serving a public feed: edge cache first, then a build, then the last good body.
 *
 * - Edge: caches.default keeps each feed's 200 for FEED_TTL_SECONDS under its canonical path, so a
 *   directory's poll is answered without D1, whichever alias it took (the Cache API is per data
 *   centre; the origin builds once per TTL each); the isolate keeps a copy in front of it that
 *   expires with it (workers/core/edge-cache.ts).
 * - Durable: every build whose bytes changed is written to R2 (feeds/<key>.xml) with its ETag and
 *   the time the bytes changed, which is the Last-Modified of every later identical build.
 * - Failure: when a build throws (D1 down, a bad row), the R2 copy is served however old it is
 *   (docs/rules.md "Rules" 4, "Feed build failure"); with none, 503 with Retry-After.
 */

const FEED_TTL_SECONDS = 300;
/** A stale body is cached briefly, so a failing origin is retried soon but not on every poll. */
const STALE_TTL_SECONDS = 60;

type Ctx = { request: Request; env: Env; url: URL };

/** R2 path of the last good body of the feed `key`. */
export function snapshotPath(key: string): string {
  return `feeds/${key}.xml`;
}

/** Builds the document of `feed` from the archive. */
async function buildPublicFeed(env: Env, feed: FeedDefinition): Promise<string> {
  const items = await publicFeedItems(env, feed.selection, feed.language);
  // The public transcripts and chapters (GET /v1/podcasts/transcripts/{slug}.vtt and .json, /v1/podcasts/chapters/{slug}.json).
  return renderRss(env, { ...feed, locked: false }, items, (item) => itemFileUrls(env, item.slug));
}

/** Records `xml` as the feed's last good body when its bytes changed; returns it with its validators. */
async function remember(env: Env, key: string, xml: string): Promise<FeedBody> {
  const etag = await entityTag(xml);
  const path = snapshotPath(key);
  const stored = await env.AUDIO.head(path).catch(() => null);
  const meta = stored?.customMetadata;
  if (meta?.etag === etag && meta.lastModified) return { xml, etag, lastModified: new Date(meta.lastModified) };
  const body: FeedBody = { xml, etag, lastModified: new Date() };
  // Awaited (once per change, off the cached path): the copy must exist before we rely on it.
  await env.AUDIO.put(path, xml, {
    httpMetadata: { contentType: RSS_CONTENT_TYPE },
    customMetadata: { etag, lastModified: body.lastModified.toISOString() },
  }).catch((err: unknown) => console.error(`feed snapshot ${key} not stored: ${(err as Error).name}`));
  return body;
}

/** The last good body of the feed `key`, or null when there is none (or R2 is down too). */
async function lastGood(env: Env, key: string): Promise<FeedBody | null> {
  const object = await env.AUDIO.get(snapshotPath(key)).catch(() => null);
  const meta = object?.customMetadata;
  if (!object || !meta?.etag || !meta.lastModified) return null;
  return { xml: await object.text(), etag: meta.etag, lastModified: new Date(meta.lastModified) };
}

/**
 * Answers a GET or HEAD for a public feed. `resolve` names the feed (it may throw an ApiError such
 * as 404, which passes through); `key` identifies the snapshot to fall back on and `path` is the
 * feed's canonical path, known before `resolve` runs.
 */
export async function servePublicFeed(
  { request, env, url }: Ctx,
  { key, path }: Pick<FeedDefinition, "key" | "path">,
  resolve: () => FeedDefinition | Promise<FeedDefinition>,
): Promise<Response> {
  // One cache entry per feed: aliases serve the same bytes, and query strings (cache busters) do
  // not multiply builds either.
  const cacheKey = `${url.origin}${path}`;
  const hit = await cacheMatch(cacheKey, request);
  if (hit) return forReader(request, hit);

  let response: Response;
  try {
    const feed = await resolve();
    const body = await remember(env, key, await buildPublicFeed(env, feed));
    response = feedResponse(body, { "Cache-Control": `public, max-age=${FEED_TTL_SECONDS}` });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    console.error(`feed ${key} build failed: ${err instanceof Error ? err.name : typeof err}`);
    const stale = await lastGood(env, key);
    if (!stale) throw feedUnavailable();
    response = feedResponse(stale, { "Cache-Control": `public, max-age=${STALE_TTL_SECONDS}` });
  }
  await cachePut(cacheKey, response);
  return forReader(request, conditional(request, response));
}
