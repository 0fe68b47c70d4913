import { sha256Hex } from "../core/crypto";

/**
 * Feed responses and HTTP conditional requests (RFC 9110 §13). Podcast apps and directories poll
 * feeds every few minutes; an unchanged feed costs them a 304 with no body.
 */

export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";

/** A feed body with its validators. */
export interface FeedBody {
  xml: string;
  etag: string;
  lastModified: Date;
}

/** A strong entity tag of the exact bytes. */
export async function entityTag(xml: string): Promise<string> {
  return `"${(await sha256Hex(xml)).slice(0, 32)}"`;
}

/** The 200 response for `body` with `headers` (Cache-Control and friends). */
export function feedResponse(body: FeedBody, headers: Record<string, string>): Response {
  return new Response(body.xml, {
    headers: {
      "Content-Type": RSS_CONTENT_TYPE,
      ETag: body.etag,
      "Last-Modified": body.lastModified.toUTCString(),
      ...headers,
    },
  });
}

/** The 503 of a feed that cannot be built and has no earlier body to fall back on. */
function etagsOf(header: string): string[] {
  return header.split(",").map((t) => t.trim().replace(/^W\//, ""));
}

/**
 * `response`, or a 304 when the request's validators match it. If-None-Match wins over
 * If-Modified-Since (RFC 9110 §13.2.2); If-None-Match uses the weak comparison (§13.1.2).
 */
export function conditional(request: Request, response: Response): Response {
  if (response.status !== 200) return response;
  const etag = response.headers.get("ETag");
  const inm = request.headers.get("If-None-Match");
  const ims = request.headers.get("If-Modified-Since");
  let notModified = false;
  if (inm !== null) {
    notModified = etag !== null && (inm.trim() === "*" || etagsOf(inm).includes(etag.replace(/^W\//, "")));
  } else if (ims !== null) {
    const since = Date.parse(ims);
    const modified = Date.parse(response.headers.get("Last-Modified") ?? "");
    notModified = !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
  }
  if (!notModified) return response;
  // §15.4.5: a 304 carries the validators and caching headers a 200 would have.
  const headers = new Headers();
  for (const name of ["ETag", "Last-Modified", "Cache-Control", "Vary", "X-Robots-Tag"]) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(null, { status: 304, headers });
}
