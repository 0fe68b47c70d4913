import { sha256Hex } from "./crypto";

/** HTTP conditional requests (RFC 9110 section 13): a client that has the current body gets a 304 with none. */

/** A strong entity tag of the exact bytes. */
export async function entityTag(body: string): Promise<string> {
  return `"${(await sha256Hex(body)).slice(0, 32)}"`;
}

function etagsOf(header: string): string[] {
  return header.split(",").map((t) => t.trim().replace(/^W\//, ""));
}

/**
 * A 304 for `request` when its validators match a 200 with `headers`, else null. If-None-Match wins
 * over If-Modified-Since (RFC 9110 §13.2.2); If-None-Match uses the weak comparison (§13.1.2).
 */
export function notModified(request: Request, headers: Headers): Response | null {
  const etag = headers.get("ETag");
  const inm = request.headers.get("If-None-Match");
  const ims = request.headers.get("If-Modified-Since");
  let unchanged = false;
  if (inm !== null) {
    unchanged = etag !== null && (inm.trim() === "*" || etagsOf(inm).includes(etag.replace(/^W\//, "")));
  } else if (ims !== null) {
    const since = Date.parse(ims);
    const modified = Date.parse(headers.get("Last-Modified") ?? "");
    unchanged = !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
  }
  if (!unchanged) return null;
  // §15.4.5: a 304 carries the validators and caching headers a 200 would have.
  const kept = new Headers();
  for (const name of ["ETag", "Last-Modified", "Cache-Control", "Vary", "X-Robots-Tag"]) {
    const value = headers.get(name);
    if (value !== null) kept.set(name, value);
  }
  return new Response(null, { status: 304, headers: kept });
}

/** `response`, or a 304 when the request's validators match it (notModified). */
export function conditional(request: Request, response: Response): Response {
  if (response.status !== 200) return response;
  return notModified(request, response.headers) ?? response;
}
