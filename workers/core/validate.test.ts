import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors";
import { parseHeaders, parseJsonBody, parseParams, parseQuery } from "./validate";

const Query = v.object({
  q: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
  expand: v.optional(v.boolean(), true),
});

function issues(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.issues;
    throw err;
  }
  throw new Error("expected a validation error");
}

describe("query validation", () => {
  it("coerces numbers and booleans and applies defaults", () => {
    expect(parseQuery(Query, new URL("http://x/?q=tide&expand=false"))).toEqual({ q: "tide", limit: 20, expand: false });
    expect(parseQuery(Query, new URL("http://x/?q=tide&limit=5&expand=1"))).toEqual({ q: "tide", limit: 5, expand: true });
  });

  it("reports each bad field with loc, msg and type", () => {
    const found = issues(() => parseQuery(Query, new URL("http://x/?limit=101&expand=maybe")));
    expect(found.map((i) => i.loc)).toEqual([
      ["query", "q"],
      ["query", "limit"],
      ["query", "expand"],
    ]);
    expect(found[1].type).toBe("max_value");
    for (const issue of found) expect(issue.msg).toBeTypeOf("string");
  });

  it("checks a repeated query string once, and shares its frozen result", () => {
    const first = parseQuery(Query, new URL("http://x/?q=harbour&limit=7"), true);
    const again = parseQuery(Query, new URL("http://y/other?q=harbour&limit=7"), true);
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(parseQuery(Query, new URL("http://x/?limit=7&q=harbour"), true)).toEqual(first);
    // A refused query is refused every time: only valid ones are kept.
    for (let i = 0; i < 2; i++) expect(issues(() => parseQuery(Query, new URL("http://x/?q=harbour&limit=700"), true))[0].loc).toEqual(["query", "limit"]);
  });

  it("never keeps a query that may carry a credential, nor one of a route that takes one", () => {
    const token = "Xk3_pQ9vLm2-Zr8TnB4wYc6HdE1sJuA0oKfGiVe7Rq5";
    const withToken = new URL(`http://x/?q=${token}`);
    expect(parseQuery(Query, withToken, true)).not.toBe(parseQuery(Query, withToken, true));
    const plain = new URL("http://x/?q=tide&limit=3");
    expect(parseQuery(Query, plain)).not.toBe(parseQuery(Query, plain));
  });

  it("checks the headers of a request that sends none of them once; sent ones every time", () => {
    const Headers_ = v.object({ "x-mode": v.optional(v.literal("bypass")), "x-listener-token": v.optional(v.string()) });
    const none = parseHeaders(Headers_, new Headers({ accept: "*/*" }), true);
    expect(parseHeaders(Headers_, new Headers(), true)).toBe(none);
    expect(none).toEqual({});
    const sent = new Headers({ "x-mode": "bypass" });
    expect(parseHeaders(Headers_, sent, true)).not.toBe(parseHeaders(Headers_, sent, true));
    expect(issues(() => parseHeaders(Headers_, new Headers({ "x-mode": "other" }), true))[0].loc).toEqual(["header", "x-mode"]);
    expect(parseHeaders(Headers_, new Headers(), true)).toBe(none);
    expect(parseHeaders(Headers_, new Headers())).not.toBe(none);
  });

  it("checks repeated path parameters once too", () => {
    const Params = v.object({ key: v.pipe(v.string(), v.regex(/^[0-9a-f]{8}$/)), n: v.number() });
    const first = parseParams(Params, { key: "0123abcd", n: "3" }, true);
    expect(first).toEqual({ key: "0123abcd", n: 3 });
    expect(parseParams(Params, { key: "0123abcd", n: "3" }, true)).toBe(first);
    for (let i = 0; i < 2; i++) expect(issues(() => parseParams(Params, { key: "0123abcX", n: "3" }, true))[0].loc).toEqual(["path", "key"]);
  });

  it("rejects text where a number belongs", () => {
    expect(issues(() => parseQuery(Query, new URL("http://x/?q=a&limit=ten")))[0]).toMatchObject({
      loc: ["query", "limit"],
      type: "number",
    });
  });
});

describe("JSON body validation", () => {
  const Body = v.object({ email: v.pipe(v.string(), v.email()) });

  it("maps malformed JSON to a 422 issue on the body", () => {
    expect(issues(() => parseJsonBody(Body, "{"))).toEqual([{ loc: ["body"], msg: "body is not valid JSON", type: "json_invalid" }]);
  });

  it("names the bad member", () => {
    expect(issues(() => parseJsonBody(Body, '{"email":"nope"}'))[0]).toMatchObject({ loc: ["body", "email"], type: "email" });
  });
});
