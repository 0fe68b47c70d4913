import { conditional, evaluatePreconditions } from "./conditional";

/**
 * The edge cache (caches.default) with a copy in the isolate in front of it, for the public
 * responses every client asks for: the public podcast feeds, the anonymous stories feed and the
 * episodes' audio. A directory polling a feed or a podcast app fetching a new episode is then
 * answered from memory, without the Cache API's subrequest and copy (bench/README.md, "Where the
 * time went").
 *
 * The copy never outlives the edge entry it mirrors: both expire at the response's `Date` plus its
 * `max-age`, so a change shows up exactly as late as it did with the edge cache alone. The copies
 * are bounded in bytes and the least recently used goes first.
 */

/** A kept response. Its headers are built once and only ever read or copied (new Response copies them). */
type Copy = { body: ArrayBuffer; status: number; headers: Headers; expires: number };

/** The copies' total size: a few feeds of 1,000 items (about 1 MB each), the newest episodes and many small pages. */
const MAX_BYTES = 24 * 1024 * 1024;

/** The largest body copied: a quarter of the total, about 25 minutes of MP3 at 128 kbit/s. */
export const MAX_COPY_BYTES = MAX_BYTES / 4;

const copies = new Map<string, Copy>();
let bytes = 0;

function drop(key: string): void {
  const copy = copies.get(key);
  if (!copy) return;
  copies.delete(key);
  bytes -= copy.body.byteLength;
}

/** When `response` stops being fresh: its Date plus its max-age (RFC 9111 §4.2.1; directives in any case, §5.2), in ms. */
function freshUntil(response: Response): number {
  const maxAge = /(?:^|[,\s])max-age=(\d+)/i.exec(response.headers.get("Cache-Control") ?? "")?.[1];
  const date = Date.parse(response.headers.get("Date") ?? "");
  return maxAge === undefined || Number.isNaN(date) ? 0 : date + Number(maxAge) * 1000;
}

/**
 * Keeps a copy of `response` (a whole 200) under `key` in the isolate while it is fresh and no
 * larger than MAX_COPY_BYTES; reads or cancels its body.
 */
export async function keepCopy(key: string, response: Response): Promise<void> {
  drop(key);
  const expires = freshUntil(response);
  if (expires <= Date.now() || Number(response.headers.get("Content-Length") ?? 0) > MAX_COPY_BYTES) {
    // Unread, this body (often one branch of a clone) would be buffered for nothing.
    await response.body?.cancel();
    return;
  }
  const body = await response.arrayBuffer();
  if (body.byteLength > MAX_COPY_BYTES) return;
  drop(key); // a concurrent keepCopy of the same key may have finished first
  copies.set(key, { body, status: response.status, headers: new Headers(response.headers), expires });
  bytes += body.byteLength;
  for (const oldest of copies.keys()) {
    if (bytes <= MAX_BYTES) break;
    drop(oldest);
  }
}

/** The isolate's fresh copy of `key` (a URL), if it has one. */
export function cachedCopy(key: string): Pick<Copy, "body" | "status" | "headers"> | undefined {
  const copy = copies.get(key);
  if (!copy || copy.expires <= Date.now()) {
    drop(key);
    return undefined;
  }
  // Most recently used last: the eviction loop walks the Map from its oldest entry.
  copies.delete(key);
  copies.set(key, copy);
  return copy;
}

/**
 * The cached answer to `request` under `key` (a URL), from the isolate's copy or else the edge:
 * the 412 or 304 the request's preconditions call for against the stored 200 (core/conditional.ts),
 * else the response; undefined on a miss. Either is built from the copy's headers alone, without
 * copying the body into a response first.
 */
export async function cacheMatch(key: string, request: Request): Promise<Response | undefined> {
  const copy = cachedCopy(key);
  if (copy) return evaluatePreconditions(request, copy.headers) ?? new Response(copy.body, { status: copy.status, headers: copy.headers });
  const hit = await caches.default.match(key);
  if (!hit) return undefined;
  await keepCopy(key, hit.clone());
  return conditional(request, hit);
}

/**
 * Stores a copy of `response` (a 200 with Cache-Control max-age) under `key` at the edge and in the
 * isolate; stamps its `Date` (RFC 9110 §6.6.1) when it has none, which both copies' freshness counts
 * from. Failing to store is not an error: the caches are an optimisation.
 */
export async function cachePut(key: string, response: Response): Promise<void> {
  if (!response.headers.has("Date")) response.headers.set("Date", new Date().toUTCString());
  await Promise.all([caches.default.put(key, response.clone()).catch(() => undefined), keepCopy(key, response.clone())]);
}

/** Drops `key` from the isolate and the edge, so the next request builds the response afresh. */
export async function cacheDelete(key: string): Promise<void> {
  drop(key);
  await caches.default.delete(key);
}

/** Drops every copy in the isolate (the test setup, whose storage reset empties the edge cache). */
export function forgetCopies(): void {
  copies.clear();
  bytes = 0;
}
