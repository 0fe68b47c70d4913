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
