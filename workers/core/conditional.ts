import { sha256Hex } from "./crypto";

/**
 * HTTP conditional requests (RFC 9110 section 13) on a GET or HEAD of a 200: a client whose
 * If-Match or If-Unmodified-Since fails gets a 412, and one that has the current body a 304 with none.
 */

/** A strong entity tag of the exact bytes. */
export async function entityTag(body: string): Promise<string> {
  return `"${(await sha256Hex(body)).slice(0, 32)}"`;
}

/** An entity tag without its weak indicator, for the weak comparison (§13.1.2): `W/` is case-sensitive. */
function opaqueTag(tag: string): string {
  return tag.replace(/^W\//, "");
}

/** The tags a header lists. Headers have no leading or trailing whitespace (Fetch normalizes them). */
function tagsOf(header: string): string[] {
  return header.split(",").map((t) => t.trim());
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
    unchanged = etag !== null && (inm === "*" || tagsOf(inm).map(opaqueTag).includes(opaqueTag(etag)));
  } else if (ims !== null) {
    // An invalid or missing date parses to NaN, and no comparison with NaN holds.
    unchanged = Date.parse(headers.get("Last-Modified") ?? "") <= Date.parse(ims);
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

/**
 * A 412 for `request` when its preconditions fail for a 200 with `headers`, else null (RFC 9110
 * §13.2.2 steps 1 and 2): If-Match by the strong comparison, a weak tag never matching (§13.1.1); without
 * If-Match, If-Unmodified-Since, failing when Last-Modified is later and ignored when either date is
 * not a valid HTTP-date (§13.1.4). The 412 names the current validators and is kept by no cache.
 */
export function preconditionFailed(request: Request, headers: Headers): Response | null {
  const etag = headers.get("ETag");
  const im = request.headers.get("If-Match");
  const ium = request.headers.get("If-Unmodified-Since");
  let failed = false;
  if (im !== null) {
    failed = im !== "*" && (etag === null || etag.startsWith("W/") || !tagsOf(im).includes(etag));
  } else if (ium !== null) {
    // As for If-Modified-Since: an invalid or missing date is NaN, so the header is ignored.
    failed = Date.parse(headers.get("Last-Modified") ?? "") > Date.parse(ium);
  }
  if (!failed) return null;
  const kept = new Headers({ "Cache-Control": "no-store" });
  for (const name of ["ETag", "Last-Modified"]) {
    const value = headers.get(name);
    if (value !== null) kept.set(name, value);
  }
  return new Response(null, { status: 412, headers: kept });
}

/**
 * The preconditions of `request` against a 200 with `headers`, in the order of RFC 9110 §13.2.2:
 * a 412 (preconditionFailed), else a 304 (notModified), else null: answer as if unconditional.
 */
export function evaluatePreconditions(request: Request, headers: Headers): Response | null {
  return preconditionFailed(request, headers) ?? notModified(request, headers);
}

/** `response`, or the 412 or 304 its request's preconditions call for (evaluatePreconditions). */
export function conditional(request: Request, response: Response): Response {
  if (response.status !== 200) return response;
  return evaluatePreconditions(request, response.headers) ?? response;
}
