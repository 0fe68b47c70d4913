/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { methodsOf, type Route } from "../workers/core/route";
import { router, routes } from "../workers/router";
import { STATIC_PATHS } from "../workers/web/static-files";

/**
 * docs/architecture.md "Layout", the naming rule: the route for METHOD /v1/a/{b}/c lives in
 * workers/<domain>/routes/<method>.a.{b}.c.ts (without /v1/; other paths keep every segment, a
 * leading dot dropped). A file whose name holds a parameter the path spells out, like
 * get.audio.{key}.{format}.ts, serves one route per value of it.
 */

const modules = import.meta.glob(["../workers/*/routes/*.ts", "!../workers/*/routes/*.test.ts"], { eager: true }) as Record<string, Record<string, unknown>>;

/** The file name the rule gives a route: method, then the path's segments joined by dots. */
function ruleName(r: Pick<Route, "method" | "path">): string {
  const path = r.path
    .replace(/^\/v1\//, "")
    .replace(/^\//, "")
    .replace(/^\./, "");
  // The site's root, GET /, is get.ts.
  if (path === "") return methodsOf(r)[0].toLowerCase();
  return `${methodsOf(r)[0].toLowerCase()}.${path.replace(/:(\w+)/g, "{$1}").replaceAll("/", ".")}`;
}

const isRoute = (x: unknown): x is Route => typeof x === "object" && x !== null && "path" in x && "handle" in x;

/** Every route exported by a route file, with the file's name (without .ts). */
const defined = Object.entries(modules).flatMap(([path, mod]) => {
  const file = path.split("/").pop()!.replace(/\.ts$/, "");
  return Object.values(mod)
    .flatMap((x) => (Array.isArray(x) ? x : [x]))
    .filter(isRoute)
    .map((route) => ({ file, path, route }));
});

describe("route files are named after their paths", () => {
  it("every route of the table is defined in a route file", () => {
    const found = new Set(defined.map((d) => d.route));
    expect(routes.filter((r) => !found.has(r)).map((r) => r.path)).toEqual([]);
  });

  it("serves every static file of the web front-end through a route of the table", () => {
    const served = (path: string) => router.routes.some(([method, pattern]) => method === "GET" && pattern.test(path));
    expect(STATIC_PATHS.length).toBeGreaterThan(3);
    expect(STATIC_PATHS.filter((path) => !served(path))).toEqual([]);
  });

  it.each(defined.map((d) => [d.path, d] as const))("%s", (_, { file, route }) => {
    const name = ruleName(route);
    const pattern = new RegExp(`^${file.replace(/[.+?^$()|[\]\\-]/g, "\\$&").replace("{format}", "(wav|opus|mp3)")}$`);
    expect(file === name || pattern.test(name), `${route.path} should live in ${name}.ts`).toBe(true);
  });
});
