import parseRange from "range-parser";
import { notModified } from "./conditional";

/** RFC 9110 §15.5.17: an unsatisfiable range is a 416 that states the size. */
export function unsatisfiable(size: number): Response {
  return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}`, "Cache-Control": "no-store" } });
}

/** Whether `header` (a Range value) asks only for bytes past the end of a `size`-byte body (RFC 9110 §14.1.1). */
export function outOfRange(size: number, header: string): boolean {
  return parseRange(size, header) === -1;
}

/**
 * The answer to `request` from a whole 200 held in memory, as the Cache API answers from a stored
 * 200: 304 when If-None-Match or If-Modified-Since find the client's copy current (the feeds' own
 * check, core/conditional.ts), 206 for one satisfiable byte range (§14), 416 when no range is
 * satisfiable, and the whole body otherwise: several ranges (a server may ignore Range, §14.2), a
 * malformed one, or an If-Range naming another version (§13.1.5).
 */
export function answerFromBytes(request: Request, body: ArrayBuffer, stored: Headers): Response {
  // `stored` is the copy's own: it is read here and copied by each Response, never changed.
  const unchanged = notModified(request, stored);
  if (unchanged) return unchanged;
  const range = request.headers.get("Range");
  const ifRange = request.headers.get("If-Range");
  if (range && (ifRange === null || ifRange === stored.get("ETag") || ifRange === stored.get("Last-Modified"))) {
    const ranges = parseRange(body.byteLength, range, { combine: true });
    if (ranges === -1) return unsatisfiable(body.byteLength);
    if (ranges !== -2 && ranges.type === "bytes" && ranges.length === 1) {
      const { start, end } = ranges[0];
      const partial = new Response(body.slice(start, end + 1), { status: 206, headers: stored });
      partial.headers.set("Content-Range", `bytes ${start}-${end}/${body.byteLength}`);
      partial.headers.set("Content-Length", String(end - start + 1));
      return partial;
    }
  }
  const whole = new Response(body, { headers: stored });
  whole.headers.set("Content-Length", String(body.byteLength));
  return whole;
}
