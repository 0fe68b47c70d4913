import { describe, expect, it } from "vitest";
import { methodsOf } from "../workers/core/route";
import { router, routes } from "../workers/router";

/**
 * The route table matches in registration order (workers/router.ts). Each route must win a request for
 * its own path: a parameter route registered before a literal one it also matches (/v1/listeners/{token}
 * before /v1/listeners/subscribe) would take that literal path's requests.
 */

/** A path the route matches, its parameters filled with a value no literal segment of ours has. */
const sampleOf = (path: string) => path.replace(/:(\w+)/g, "sample-$1");

const cases = routes.flatMap((r) => methodsOf(r).map((method) => [`${method} ${r.path}`, method, r.path] as const));

describe("route order", () => {
  it("has a case for every route", () => {
    expect(cases.length).toBeGreaterThanOrEqual(routes.length);
  });

  it.each(cases)("%s wins its own path", (_, method, path) => {
    const sample = sampleOf(path);
    const first = router.routes.find(([m, pattern]) => (m === method || m === "ALL") && pattern.test(sample));
    // itty-router keeps "/" as "".
    expect(first?.[3] || "/", sample).toBe(path);
  });
});
