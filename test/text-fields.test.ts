import { describe, expect, it } from "vitest";
import { methodsOf, type Route } from "../workers/core/route";
import { signWebhook } from "../workers/core/auth";
import { routes } from "../workers/router";
import { addListener } from "./support/articles";
import { adminHeaders, apiKeyHeaders, call } from "./support/client";
import { testVars } from "./vars";

/**
 * Every text field of every route, generated from the route table: a value carrying a control
 * character or a lone surrogate is a 422 naming that field, never a 5xx (issue 16, item 1: a NUL in
 * the search query reached FTS5 and answered 500).
 */

type Node = { type: string; wrapped?: Node; entries?: Record<string, Node>; item?: Node; options?: Node[] };
type Where = "path" | "query" | "header" | "body";

const WRAPPERS = new Set(["optional", "nullable", "nullish", "exact_optional", "non_optional", "non_nullable"]);

function unwrap(schema: Node): Node {
  let s = schema;
  while (WRAPPERS.has(s.type) && s.wrapped) s = s.wrapped;
  return s;
}

/** One request value per string leaf of `schema`, with the location of that leaf. */
function leaves(schema: Node, bad: string): { value: unknown; loc: (string | number)[] }[] {
  const s = unwrap(schema);
  if (s.type === "string") return [{ value: bad, loc: [] }];
  if (s.type === "array" && s.item) return leaves(s.item, bad).map((l) => ({ value: [l.value], loc: [0, ...l.loc] }));
  if (s.type === "union" && s.options) return s.options.flatMap((o) => leaves(o, bad));
  if (s.entries) {
    return Object.entries(s.entries).flatMap(([key, field]) => leaves(field, bad).map((l) => ({ value: { [key]: l.value }, loc: [key, ...l.loc] })));
  }
  return [];
}

// A fetch Headers value cannot hold NUL, CR, LF or anything past Latin-1, and a URL cannot carry a
// lone surrogate (it is encoded as U+FFFD), so each location gets the characters it can carry.
const IN_HEADERS = ["\u0001", "\u0007", "\u001b", "\u007f"];
const IN_URLS = [...IN_HEADERS, "\u0000", "\t", "\n", "\r", "\u0085", "\u009f", "\uffff"];
const IN_BODIES = ["\u0000", "\u0007", "\u001b", "\u007f", "\u0085", "\uffff", "\ud800", "\udfff", "\udbff\u0041"];
const BAD: Record<Where, string[]> = { path: IN_URLS, query: IN_URLS, header: IN_HEADERS, body: IN_BODIES };

function credentials(r: Route): Record<string, string> {
  if (r.auth === "api_key" || r.auth === "api_key_or_admin" || r.auth === "api_key_or_member") return apiKeyHeaders;
  if (r.auth === "admin") return adminHeaders;
  return {};
}

interface Probe {
  name: string;
  loc: (string | number)[];
  char: string;
  send: () => Promise<Response>;
}

function probes(r: Route): Probe[] {
  const out: Probe[] = [];
  const paramNames = Object.keys((r.params as unknown as Node | undefined)?.entries ?? {});
  // A listener path needs a real token (the route table resolves it before the body is read), made
  // per request since storage resets between tests; a bad character in the token itself is a 422 first.
  const realToken = async () => (r.auth === "listener_token" ? (await addListener()).token : "x");
  for (const method of methodsOf(r).filter((m) => m !== "HEAD")) {
    const base = { method, headers: credentials(r) };
    for (const where of ["path", "query", "header", "body"] as const) {
      const schema = { path: r.params, query: r.query, header: r.headers, body: r.body }[where] as unknown as Node | undefined;
      if (!schema) continue;
      for (const char of BAD[where]) {
        for (const leaf of leaves(schema, `a${char}b`)) {
          const name = `${method} ${r.path} ${where} ${leaf.loc.join(".")}`;
          const loc = [where, ...leaf.loc];
          const value = leaf.value as Record<string, unknown>;
          const send = async () => {
            const token = await realToken();
            const pathWith = (params: Record<string, string>) =>
              r.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? (name === "token" ? token : "x")));
            const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
            if (where === "path") return call(pathWith(value as Record<string, string>), { ...base, ip });
            if (where === "query") {
              const q = new URLSearchParams(Object.entries(value).map(([k, v]) => [k, String(v)]));
              return call(`${pathWith({})}?${q}`, { ...base, ip });
            }
            if (where === "header") return call(pathWith({}), { ...base, ip, headers: { ...base.headers, ...(value as Record<string, string>) } });
            const raw = new TextEncoder().encode(JSON.stringify(value));
            const headers: Record<string, string> = { ...base.headers, "content-type": "application/json" };
            if (r.auth === "webhook_signature") headers["x-legacy-signature"] = await signWebhook(testVars.PUBLISH_WEBHOOK_SECRET, raw);
            return call(pathWith({}), { method, headers, body: raw, ip });
          };
          if (where !== "path" || paramNames.includes(String(leaf.loc[0]))) out.push({ name, loc, char, send });
        }
      }
    }
  }
  return out;
}

/** One test per field (storage resets per test): every bad character in turn. */
/** The API's routes: a page's 422 is a page (its Route.renderErrors), not the JSON `detail` list checked here. */
const byField = Map.groupBy(routes.filter((r) => !r.renderErrors).flatMap(probes), (p) => p.name);

describe("control characters and lone surrogates in every text field", () => {
  it("finds the text fields of the route table", () => {
    // Guards the generator itself: a route table it could not read would pass vacuously.
    expect(byField.size).toBeGreaterThan(40);
  });

  it.each([...byField])("%s is a 422 on that field", async (_, probes) => {
    for (const probe of probes) {
      const res = await probe.send();
      const char = `U+${probe.char.charCodeAt(0).toString(16).padStart(4, "0")}`;
      expect(res.status, char).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: (string | number)[] }[] };
      expect(
        detail.map((d) => d.loc),
        char,
      ).toContainEqual(probe.loc);
    }
  });
});

/**
 * A query parameter given twice (issue 29, item 7): a field that takes one value, and the API key in
 * the query, answer 422 naming it, alone and all at once, instead of one reader taking the first
 * value and another the last.
 */
const scalarQueryFields = routes.flatMap((r) =>
  Object.entries((r.query as unknown as Node | undefined)?.entries ?? {})
    .filter(([, field]) => unwrap(field).type !== "array")
    .flatMap(([name]) =>
      methodsOf(r)
        .filter((m) => m !== "HEAD")
        .map((method) => [`${method} ${r.path} ${name}`, r, method, name] as const),
    ),
);
const apiKeyRoutes = routes.filter((r) => r.auth === "api_key").flatMap((r) => methodsOf(r).map((method) => [`${method} ${r.path}`, r, method] as const));
const anyIp = () => `198.18.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

async function expectGivenTwice(res: Response, loc: (string | number)[]) {
  expect(res.status).toBe(422);
  const { detail } = (await res.json()) as { detail: { loc: (string | number)[]; type: string }[] };
  expect(detail).toContainEqual(expect.objectContaining({ loc, type: "duplicate" }));
}

describe("query parameters given twice", () => {
  it("finds the query fields and the API-key routes", () => {
    expect(scalarQueryFields.length).toBeGreaterThan(20);
    expect(apiKeyRoutes.length).toBeGreaterThanOrEqual(4);
  });

  it.each(scalarQueryFields)("%s twice is a 422 naming it", async (_, r, method, name) => {
    const token = r.auth === "listener_token" ? (await addListener()).token : "x";
    const path = r.path.replace(/:(\w+)/g, (_, param: string) => (param === "token" ? token : "x"));
    const send = () => call(`${path}?${name}=1&${name}=2`, { method, headers: credentials(r), ip: anyIp() });
    await expectGivenTwice(await send(), ["query", name]);
    for (const res of await Promise.all(Array.from({ length: 20 }, send))) await expectGivenTwice(res, ["query", name]);
  });

  it.each(apiKeyRoutes)("%s refuses api_key twice, even the right key twice", async (_, r, method) => {
    const key = encodeURIComponent(testVars.SERVICE_API_KEY);
    const path = r.path.replace(/:(\w+)/g, "x");
    for (const query of [`api_key=${key}&api_key=${key}`, `api_key=wrong&api_key=${key}`, `api_key=${key}&api_key=wrong`]) {
      const send = () =>
        call(`${path}?${query}`, {
          method,
          ip: anyIp(),
          ...(method === "GET" ? {} : { headers: { "content-type": "application/json" }, body: '{"text":"Hi."}' }),
        });
      await expectGivenTwice(await send(), ["query", "api_key"]);
      for (const res of await Promise.all(Array.from({ length: 20 }, send))) await expectGivenTwice(res, ["query", "api_key"]);
    }
  });
});
