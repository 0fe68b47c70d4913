import parseRange from "range-parser";
import { evaluatePreconditions } from "./conditional";

/** RFC 9110 §15.5.17: an unsatisfiable range is a 416 that states the size. */
export function unsatisfiable(size: number): Response {
  return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}`, "Cache-Control": "no-store" } });
}

/**
 * range-parser refuses a suffix longer than the body, where RFC 9110 §14.1.2 says "the entire
 * representation is used": each such suffix is cut to the size before parsing.
 */
function parse(size: number, header: string): ReturnType<typeof parseRange> {
  const eq = header.indexOf("=");
  const specs = header.slice(eq + 1).split(",");
  const cut = specs.map((spec) => {
    const suffix = /^\s*-\s*(\d+)\s*$/.exec(spec)?.[1];
    return suffix !== undefined && size > 0 && Number(suffix) > size ? `-${size}` : spec;
  });
  return parseRange(size, eq === -1 ? header : `${header.slice(0, eq + 1)}${cut.join(",")}`, { combine: true });
}

/** Whether `header` (a Range value) asks only for bytes past the end of a `size`-byte body (RFC 9110 §14.1.1). */
export function outOfRange(size: number, header: string): boolean {
  return parse(size, header) === -1;
}

/**
 * The first and last byte of an object R2 served for a ranged get, from the range it reports: an
 * offset with or without a length, or a suffix (`bytes=-N`: the last N bytes, all of them when N
 * is the size or more, RFC 9110 §14.1.2).
 */
export function servedSpan(range: R2Range, size: number): [number, number] {
  if ("suffix" in range && range.suffix !== undefined) return [Math.max(0, size - range.suffix), size - 1];
  const { offset, length } = range as { offset?: number; length?: number };
  const start = offset ?? 0;
  const end = length !== undefined ? Math.min(size, start + length) - 1 : size - 1;
  return [start, end];
}

/**
 * The answer to `request` from a whole 200 held in memory, as the Cache API answers from a stored
 * 200: 412 when If-Match or If-Unmodified-Since fails, 304 when If-None-Match or If-Modified-Since
 * find the client's copy current (RFC 9110 §13.2.2, core/conditional.ts), 206 for one satisfiable
 * byte range (§14), 416 when no range is satisfiable, and the whole body otherwise: several ranges
 * (a server may ignore Range, §14.2), a malformed one, or an If-Range naming another version (§13.1.5).
 */
export function answerFromBytes(request: Request, body: ArrayBuffer, stored: Headers): Response {
  // `stored` is the copy's own: it is read here and copied by each Response, never changed.
  const decided = evaluatePreconditions(request, stored);
  if (decided) return decided;
  const range = request.headers.get("Range");
  const ifRange = request.headers.get("If-Range");
  if (range && (ifRange === null || ifRange === stored.get("ETag") || ifRange === stored.get("Last-Modified"))) {
    const ranges = parse(body.byteLength, range);
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
