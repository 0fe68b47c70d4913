import { describe, expect, it } from "vitest";
import { conditional } from "./conditional";

/** Conditional GET of a 200 (RFC 9110 §13), each case named after the clause it proves. */

const ETAG = '"v1"';
const LAST_MODIFIED = "Mon, 23 Nov 2026 10:00:00 GMT";
const EARLIER = "Mon, 23 Nov 2026 09:59:59 GMT";
const LATER = "Mon, 23 Nov 2026 10:00:01 GMT";

function answer(headers: Record<string, string>, stored: Record<string, string> = { ETag: ETAG, "Last-Modified": LAST_MODIFIED }): Response {
  const response = new Response("body", { headers: { "Cache-Control": "public, max-age=300", ...stored } });
  return conditional(new Request("https://conditional.test/feed.xml", { headers }), response);
}

const CASES: [string, Record<string, string>, number][] = [
  ["§13.1.1: If-Match naming another tag fails", { "If-Match": '"v0"' }, 412],
  ["§13.1.1: If-Match compares strongly, so a weak tag never matches", { "If-Match": `W/${ETAG}` }, 412],
  ["§13.1.1: If-Match listing the tag passes", { "If-Match": `"v0", ${ETAG}` }, 200],
  ["§13.1.1: If-Match * passes for a current representation", { "If-Match": "*" }, 200],
  ["§13.1.4: If-Unmodified-Since before Last-Modified fails", { "If-Unmodified-Since": EARLIER }, 412],
  ["§13.1.4: If-Unmodified-Since at Last-Modified passes", { "If-Unmodified-Since": LAST_MODIFIED }, 200],
  ["§13.1.4: If-Unmodified-Since after Last-Modified passes", { "If-Unmodified-Since": LATER }, 200],
  ["§13.1.4: an If-Unmodified-Since that is no HTTP-date is ignored", { "If-Unmodified-Since": "yesterday" }, 200],
  ["§13.1.4: If-Unmodified-Since is ignored beside If-Match", { "If-Match": ETAG, "If-Unmodified-Since": EARLIER }, 200],
  ["§13.2.2: a failed If-Match wins over a matching If-None-Match", { "If-Match": '"v0"', "If-None-Match": ETAG }, 412],
  ["§13.2.2: a failed If-Unmodified-Since wins over a matching If-Modified-Since", { "If-Unmodified-Since": EARLIER, "If-Modified-Since": LAST_MODIFIED }, 412],
  ["§13.2.2: a passing If-Match leaves If-None-Match to answer 304", { "If-Match": ETAG, "If-None-Match": ETAG }, 304],
  ["§13.1.2: If-None-Match compares weakly", { "If-None-Match": `W/${ETAG}` }, 304],
  ["§13.1.3: If-Modified-Since at Last-Modified is not modified", { "If-Modified-Since": LAST_MODIFIED }, 304],
];

describe("preconditions of a GET (RFC 9110 §13.1, evaluated in the order of §13.2.2)", () => {
  it.each(CASES)("%s", async (_, headers, status) => {
    const res = answer(headers);
    expect(res.status).toBe(status);
    if (status === 200) expect(await res.text()).toBe("body");
    else expect(res.body).toBeNull();
  });

  it("a 412 names the current validators and no cache may keep it", () => {
    const res = answer({ "If-Match": '"v0"' });
    expect(res.headers.get("etag")).toBe(ETAG);
    expect(res.headers.get("last-modified")).toBe(LAST_MODIFIED);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("§13.1.1: If-Match fails against a representation without an ETag; If-Unmodified-Since is ignored without Last-Modified", () => {
    expect(answer({ "If-Match": ETAG }, {}).status).toBe(412);
    expect(answer({ "If-Unmodified-Since": EARLIER }, {}).status).toBe(200);
  });
});
