import { describe, expect, it } from "vitest";
import { answerFromBytes, outOfRange, servedSpan } from "./byte-ranges";

const BODY = new Uint8Array(Array.from({ length: 100 }, (_, i) => i)).buffer;
const STORED = new Headers({ "Content-Type": "audio/mpeg", ETag: '"v1"', "Last-Modified": "Mon, 23 Nov 2026 10:00:00 GMT", "Content-Length": "100" });

function answer(headers: Record<string, string>): Response {
  return answerFromBytes(new Request("https://byte-ranges.test/a.mp3", { headers }), BODY, STORED);
}

async function bytes(res: Response): Promise<number[]> {
  return [...new Uint8Array(await res.arrayBuffer())];
}

describe("answers from a whole body in memory (RFC 9110 §13, §14)", () => {
  it("the whole body with its stored headers when nothing is asked", async () => {
    const res = answer({});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("100");
    expect(res.headers.get("etag")).toBe('"v1"');
    expect(await bytes(res)).toHaveLength(100);
  });

  it("206 with Content-Range for one range, a suffix and an open end", async () => {
    const first = answer({ Range: "bytes=0-1" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe("bytes 0-1/100");
    expect(first.headers.get("content-length")).toBe("2");
    expect(await bytes(first)).toEqual([0, 1]);
    expect(await bytes(answer({ Range: "bytes=-3" }))).toEqual([97, 98, 99]);
    // A suffix longer than the body is the whole body (§14.1.2), not unsatisfiable.
    const longer = answer({ Range: "bytes=-500" });
    expect(longer.status).toBe(206);
    expect(longer.headers.get("content-range")).toBe("bytes 0-99/100");
    expect(await bytes(longer)).toHaveLength(100);
    // The stored headers are the isolate copy's, shared by every answer: none may change them.
    expect(STORED.get("content-range")).toBeNull();
    expect(STORED.get("content-length")).toBe("100");
    const open = answer({ Range: "bytes=95-" });
    expect(open.headers.get("content-range")).toBe("bytes 95-99/100");
    // An end past the size is cut to the size (§14.1.2).
    expect(answer({ Range: "bytes=98-500" }).headers.get("content-range")).toBe("bytes 98-99/100");
  });

  it("416 stating the size when no range is satisfiable, bytes=-0 included", () => {
    for (const range of ["bytes=100-200", "bytes=-0"]) {
      const res = answer({ Range: range });
      expect(res.status).toBe(416);
      expect(res.headers.get("content-range")).toBe("bytes */100");
      // A 416 is about this request's range, not the object: no cache keeps it for the next one.
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    expect(outOfRange(100, "bytes=100-")).toBe(true);
    expect(outOfRange(100, "bytes=99-")).toBe(false);
    expect(outOfRange(100, "bytes=-101")).toBe(false);
  });

  it("the whole body for several ranges, a malformed range or an If-Range naming another version", () => {
    const cases: Record<string, string>[] = [
      { Range: "bytes=0-1,50-51" },
      { Range: "pages=1-2" },
      { Range: "bytes=-999x" },
      { Range: "bytes=0-1", "If-Range": '"v0"' },
    ];
    for (const headers of cases) {
      const res = answer(headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBe("100");
    }
    expect(answer({ Range: "bytes=0-1", "If-Range": '"v1"' }).status).toBe(206);
    expect(answer({ Range: "bytes=0-1", "If-Range": "Mon, 23 Nov 2026 10:00:00 GMT" }).status).toBe(206);
    expect(answer({ Range: "bytes=0-1", "If-Range": "Sun, 22 Nov 2026 10:00:00 GMT" }).status).toBe(200);
  });

  it("a whole body states its length, also when the stored headers did not", () => {
    const res = answerFromBytes(new Request("https://byte-ranges.test/a.mp3"), BODY, new Headers({ ETag: '"v1"' }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("100");
  });

  it("a 206's Content-Length is the length of its range", async () => {
    const res = answer({ Range: "bytes=10-19" });
    expect(res.headers.get("content-range")).toBe("bytes 10-19/100");
    expect(res.headers.get("content-length")).toBe("10");
    expect(await bytes(res)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it("one range from adjacent or overlapping ones, as one 206 (RFC 9110 §14.2 lets a server combine them)", async () => {
    for (const range of ["bytes=0-1,2-3", "bytes=2-3, 0-2"]) {
      const res = answer({ Range: range });
      expect(res.status).toBe(206);
      expect(res.headers.get("content-range")).toBe("bytes 0-3/100");
      expect(await bytes(res)).toEqual([0, 1, 2, 3]);
    }
  });

  it("304 for a matching If-None-Match (weak or listed) or an If-Modified-Since at or after Last-Modified", () => {
    const cases: Record<string, string>[] = [
      { "If-None-Match": '"v1"' },
      { "If-None-Match": 'W/"v0", W/"v1"' },
      { "If-None-Match": "*" },
      { "If-Modified-Since": "Mon, 23 Nov 2026 10:00:00 GMT" },
    ];
    for (const headers of cases) {
      const res = answer(headers);
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe('"v1"');
      expect(res.body).toBeNull();
    }
    expect(answer({ "If-None-Match": '"v0"' }).status).toBe(200);
    expect(answer({ "If-Modified-Since": "Sun, 22 Nov 2026 10:00:00 GMT" }).status).toBe(200);
  });

  it("412 for a failed If-Match or If-Unmodified-Since, before If-None-Match and Range are looked at (§13.2.2)", async () => {
    const failing: Record<string, string>[] = [
      { "If-Match": '"v0"' },
      { "If-Match": '"v0"', "If-None-Match": '"v1"' },
      { "If-Match": '"v0"', Range: "bytes=0-1" },
      { "If-Unmodified-Since": "Sun, 22 Nov 2026 10:00:00 GMT" },
    ];
    for (const headers of failing) {
      const res = answer(headers);
      expect(res.status, JSON.stringify(headers)).toBe(412);
      expect(res.body).toBeNull();
    }
    expect(answer({ "If-Match": '"v1"', Range: "bytes=0-1" }).status).toBe(206);
    expect(answer({ "If-Match": '"v1"', "If-None-Match": '"v1"' }).status).toBe(304);
  });
});

/** R2 reports the range it served as an offset and length, or as a suffix for `bytes=-N`. */
describe("the bytes R2 served for a ranged get", () => {
  // planted: `size - range.suffix` -> `size - range.suffix + 1` (or `- 1`) in servedSpan.
  it("a suffix is the last N bytes, all of them when N is the size or more (RFC 9110 §14.1.2)", () => {
    expect(servedSpan({ suffix: 10 }, 1000)).toEqual([990, 999]);
    expect(servedSpan({ suffix: 1 }, 1000)).toEqual([999, 999]);
    expect(servedSpan({ suffix: 1000 }, 1000)).toEqual([0, 999]);
    expect(servedSpan({ suffix: 5000 }, 1000)).toEqual([0, 999]);
  });

  it("an offset runs to its length or to the end, cut at the size", () => {
    expect(servedSpan({ offset: 0, length: 2 }, 1000)).toEqual([0, 1]);
    expect(servedSpan({ offset: 100, length: 100 }, 1000)).toEqual([100, 199]);
    expect(servedSpan({ offset: 995 }, 1000)).toEqual([995, 999]);
    expect(servedSpan({ offset: 990, length: 100 }, 1000)).toEqual([990, 999]);
    expect(servedSpan({ length: 10 }, 1000)).toEqual([0, 9]);
    // A range object that names every field, the suffix left undefined, is still an offset range.
    expect(servedSpan({ offset: 100, length: 10, suffix: undefined } as R2Range, 1000)).toEqual([100, 109]);
  });
});
