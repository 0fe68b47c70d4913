import { describe, expect, it } from "vitest";
import { conditional, entityTag } from "./conditional";

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
  ["§13.1.1: If-Match * passes for a current representation", { "If-Match": " * " }, 200],
  ["§13.1.1: If-Match listing the tag after another, spaced, passes", { "If-Match": `"v0" ,${ETAG} ` }, 200],
  ["§13.1.4: If-Unmodified-Since before Last-Modified fails", { "If-Unmodified-Since": EARLIER }, 412],
  ["§13.1.4: If-Unmodified-Since at Last-Modified passes", { "If-Unmodified-Since": LAST_MODIFIED }, 200],
  ["§13.1.4: If-Unmodified-Since after Last-Modified passes", { "If-Unmodified-Since": LATER }, 200],
  ["§13.1.4: an If-Unmodified-Since that is no HTTP-date is ignored", { "If-Unmodified-Since": "yesterday" }, 200],
  ["§13.1.4: If-Unmodified-Since is ignored beside If-Match", { "If-Match": ETAG, "If-Unmodified-Since": EARLIER }, 200],
  ["§13.2.2: a failed If-Match wins over a matching If-None-Match", { "If-Match": '"v0"', "If-None-Match": ETAG }, 412],
  ["§13.2.2: a failed If-Unmodified-Since wins over a matching If-Modified-Since", { "If-Unmodified-Since": EARLIER, "If-Modified-Since": LAST_MODIFIED }, 412],
  ["§13.2.2: a passing If-Match leaves If-None-Match to answer 304", { "If-Match": ETAG, "If-None-Match": ETAG }, 304],
  ["§13.1.2: If-None-Match compares weakly", { "If-None-Match": `W/${ETAG}` }, 304],
  ["§13.1.2: If-None-Match naming another tag answers in full", { "If-None-Match": '"v0"' }, 200],
  ["§13.1.2: If-None-Match listing the tag after another is not modified", { "If-None-Match": `"v0",  ${ETAG}` }, 304],
  ["§13.1.2: If-None-Match * is not modified for a current representation", { "If-None-Match": " * " }, 304],
  ["§8.8.3: a lowercase w/ is no weak indicator", { "If-None-Match": `w/${ETAG}` }, 200],
  ["§13.2.2: If-Modified-Since is ignored beside If-None-Match", { "If-None-Match": '"v0"', "If-Modified-Since": LATER }, 200],
  ["§13.1.3: If-Modified-Since before Last-Modified answers in full", { "If-Modified-Since": EARLIER }, 200],
  ["§13.1.3: an If-Modified-Since that is no HTTP-date is ignored", { "If-Modified-Since": "yesterday" }, 200],
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

  it("§8.8.3: W/ marks a tag weak only at its start, so a tag holding W/ inside matches itself", () => {
    const stored = { ETag: '"aW/b"' };
    expect(answer({ "If-None-Match": '"aW/b"' }, stored).status).toBe(304);
    expect(answer({ "If-None-Match": '"ab"' }, stored).status).toBe(200);
    expect(answer({ "If-Match": '"aW/b"' }, stored).status).toBe(200);
  });

  it("§13.1.1: If-Match fails against a weak ETag even when it names that very tag", () => {
    expect(answer({ "If-Match": `W/${ETAG}` }, { ETag: `W/${ETAG}` }).status).toBe(412);
    expect(answer({ "If-None-Match": `W/${ETAG}` }, { ETag: `W/${ETAG}` }).status).toBe(304);
  });

  it("§13.1.3: If-Modified-Since is ignored without Last-Modified, and If-None-Match * without an ETag", () => {
    expect(answer({ "If-Modified-Since": LATER }, { ETag: ETAG }).status).toBe(200);
    expect(answer({ "If-None-Match": "*" }, { "Last-Modified": LAST_MODIFIED }).status).toBe(200);
  });

  it("§15.4.5: a 304 keeps the validators and caching headers a 200 would carry, and only those", () => {
    const stored = { ETag: ETAG, "Last-Modified": LAST_MODIFIED, Vary: "Accept-Encoding", "X-Robots-Tag": "noindex", "Content-Type": "application/rss+xml" };
    const res = answer({ "If-None-Match": ETAG }, stored);
    expect(res.status).toBe(304);
    expect(Object.fromEntries(res.headers)).toEqual({
      etag: ETAG,
      "last-modified": LAST_MODIFIED,
      "cache-control": "public, max-age=300",
      vary: "Accept-Encoding",
      "x-robots-tag": "noindex",
    });
    expect(Object.fromEntries(answer({ "If-Modified-Since": LAST_MODIFIED }, { "Last-Modified": LAST_MODIFIED }).headers)).toEqual({
      "last-modified": LAST_MODIFIED,
      "cache-control": "public, max-age=300",
    });
  });

  it("a 412 names no validator the representation lacks", () => {
    expect(Object.fromEntries(answer({ "If-Match": ETAG }, {}).headers)).toEqual({ "cache-control": "no-store" });
    expect(Object.fromEntries(answer({ "If-Match": '"v0"' }, { ETag: ETAG }).headers)).toEqual({ "cache-control": "no-store", etag: ETAG });
  });

  it("only a 200 is made conditional: an error or a partial answer goes out as it is", async () => {
    for (const status of [206, 404]) {
      const response = new Response("part", { status, headers: { ETag: ETAG, "Last-Modified": LAST_MODIFIED } });
      const res = conditional(new Request("https://conditional.test/a", { headers: { "If-None-Match": ETAG, "If-Match": '"v0"' } }), response);
      expect(res.status).toBe(status);
      expect(await res.text()).toBe("part");
    }
  });
});

describe("entityTag", () => {
  it("is a strong tag: the quoted first 32 hex digits of the body's SHA-256", async () => {
    // printf '%s' '<rss/>' | sha256sum: b8a3805e669decf7180d8c7f4af5d470 6d615d0678c424bd1c6b853def3bf3d2
    expect(await entityTag("<rss/>")).toBe('"b8a3805e669decf7180d8c7f4af5d470"');
    expect(await entityTag("<rss />")).not.toBe(await entityTag("<rss/>"));
  });
});
