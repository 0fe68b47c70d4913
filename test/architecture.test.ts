/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md "Who may import whom": the floors (core, db, kernel, durable-objects) import only
 * each other; every other area imports the floors and the areas its row of MAY_IMPORT names, a table
 * with no cycle; tests may also import test/support and the Worker entry. No file-level import cycles.
 */

const sources = import.meta.glob(["../workers/**/*.ts", "../durable-objects/**/*.ts", "!../**/vendor/**"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const FLOORS = ["core", "db", "kernel", "durable-objects"];

/** The declared map: each area above the floors and what it may import besides them and itself. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  web: [],
  mail: [],
  articles: ["narration"],
  narration: [],
  health: [],
  render: [],
  oauth: ["web"],
  listeners: ["web", "mail", "oauth", "articles"],
  feeds: ["listeners"],
  studio: ["web", "mail", "listeners", "narration", "articles", "feeds"],
  stats: ["studio", "web"],
  webhooks: ["studio", "web"],
  agents: ["articles", "listeners", "narration", "oauth"],
  admin: ["agents", "articles", "feeds", "listeners", "narration"],
};

/** "workers/feeds/rss.ts" → "feeds"; "durable-objects/rate-limiter.ts" → "durable-objects"; "workers/api.ts" → "entry". */
function areaOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "durable-objects") return "durable-objects";
  if (parts[0] === "test") return "test-support";
  return parts.length === 2 ? "entry" : parts[1];
}

function allowed(from: string, to: string, isTest: boolean): boolean {
  if (from === to || from === "entry") return true;
  // Tests may drive the Worker's own handlers (email, scheduled) through its entry module.
  if (to === "test-support" || to === "entry") return isTest;
  if (FLOORS.includes(from)) return FLOORS.includes(to);
  return FLOORS.includes(to) || (MAY_IMPORT[from] ?? []).includes(to);
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== ".") out.push(part);
  }
  return out.join("/");
}

const files = new Map(Object.entries(sources).map(([path, text]) => [normalize(path.replace(/^\.\.\//, "")), text]));

function resolve(from: string, spec: string): string | undefined {
  const base = normalize(`${from.split("/").slice(0, -1).join("/")}/${spec}`);
  return [base, `${base}.ts`, `${base}/index.ts`].find((c) => files.has(c)) ?? (spec.startsWith(".") ? base : undefined);
}

/** Relative imports of each file; `runtime` leaves out `import type`, which is erased before anything runs. */
function importsOf(runtime: boolean) {
  return new Map(
    [...files].map(([file, text]) => {
      const specs = [...text.matchAll(/(import\s+type\s[^;]*?from|from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)]
        .filter((m) => !(runtime && m[1].startsWith("import type")))
        .map((m) => m[2]);
      return [file, specs.map((s) => resolve(file, s)).filter((t): t is string => t !== undefined)];
    }),
  );
}

/** Every import: type-only ones couple modules as much as values do. */
const edges = importsOf(false);
/** The imports that load a module when it runs: a cycle among these is a real one. */
const runtimeEdges = importsOf(true);

describe("architecture", () => {
  it("reads the whole tree", () => {
    expect(files.size).toBeGreaterThan(150);
    for (const d of Object.keys(MAY_IMPORT).filter((d) => d !== "studio"))
      expect(
        [...files.keys()].some((f) => areaOf(f) === d),
        d,
      ).toBe(true);
  });

  it("declares a map with no cycle", () => {
    const order: string[] = [];
    const visit = (area: string, path: string[]) => {
      expect(path, `cycle: ${[...path, area].join(" -> ")}`).not.toContain(area);
      if (order.includes(area)) return;
      for (const to of MAY_IMPORT[area] ?? []) visit(to, [...path, area]);
      order.push(area);
    };
    for (const area of Object.keys(MAY_IMPORT)) visit(area, []);
    expect(order).toHaveLength(Object.keys(MAY_IMPORT).length);
  });

  it("names every area of workers/ in the map", () => {
    const areas = new Set([...files.keys()].map(areaOf).filter((a) => a !== "entry" && !FLOORS.includes(a)));
    expect([...areas].filter((a) => !(a in MAY_IMPORT))).toEqual([]);
  });

  it("keeps in kernel/ only what several areas share", () => {
    const users = new Map<string, Set<string>>();
    for (const [file, targets] of edges) {
      if (file.endsWith(".test.ts")) continue;
      for (const t of targets) if (areaOf(t) === "kernel" && areaOf(file) !== "kernel") users.set(t, (users.get(t) ?? new Set()).add(areaOf(file)));
    }
    // A kernel file is shared when two areas outside kernel/ use it, directly or through another kernel file.
    const reach = (file: string, seen = new Set<string>()): Set<string> => {
      const out = new Set(users.get(file) ?? []);
      for (const [other, targets] of edges) {
        if (areaOf(other) !== "kernel" || other.endsWith(".test.ts") || seen.has(other) || !targets.includes(file)) continue;
        seen.add(other);
        for (const a of reach(other, seen)) out.add(a);
      }
      return out;
    };
    // A folder of kernel/ (kernel/watermark/: the mark embedded by render, detected by narration) is one
    // concept: its files are shared together.
    const unitOf = (f: string) => f.split("/").slice(0, 3).join("/");
    const byUnit = new Map<string, Set<string>>();
    for (const f of [...files.keys()].filter((f) => areaOf(f) === "kernel" && !f.endsWith(".test.ts")))
      byUnit.set(unitOf(f), new Set([...(byUnit.get(unitOf(f)) ?? []), ...reach(f)]));
    expect([...byUnit].filter(([, areas]) => areas.size < 2).map(([unit, areas]) => `${unit}: ${[...areas].join(", ") || "no user"}`)).toEqual([]);
  });

  it("each area imports only the floors and what the map declares", () => {
    const offending = [...edges].flatMap(([file, targets]) =>
      targets.filter((t) => !allowed(areaOf(file), areaOf(t), file.endsWith(".test.ts"))).map((t) => `${file} -> ${t}`),
    );
    expect(offending).toEqual([]);
  });

  it("has no import cycle among the modules that load at run time", () => {
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, stack: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...stack.slice(stack.indexOf(file)), file].join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const t of runtimeEdges.get(file) ?? []) if (files.has(t)) visit(t, [...stack, file]);
      state.set(file, "done");
    };
    for (const file of files.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
