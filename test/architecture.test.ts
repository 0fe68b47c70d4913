/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md "Layout": domains import only core/, db/, kernel/, durable-objects/ and themselves; admin
 * and agents may call domain services (the operator's façade, and the agent surface over the catalogue); the render Worker shares nothing with the API
 * Worker's domains but the kernel; tests may also import test/support and the Worker entry. No
 * file-level import cycles.
 */

const sources = import.meta.glob(["../workers/**/*.ts", "../durable-objects/**/*.ts", "!../**/vendor/**"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const SHARED = ["core", "db", "kernel", "durable-objects"];
const DOMAINS = ["admin", "agents", "articles", "feeds", "health", "listeners", "mail", "narration", "web", "render"];

/** "workers/feeds/rss.ts" → "feeds"; "durable-objects/x.ts" → "durable-objects"; "workers/api.ts" → "entry". */
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
  if (from === "core") return to === "db" || to === "kernel";
  if (from === "db") return to === "core";
  if (from === "kernel" || from === "durable-objects") return SHARED.includes(to);
  // The operator's façade (admin) and the agent surface (agents) run the other domains' services.
  if (from === "admin" || from === "agents") return to !== "entry" && to !== "render" && to !== "web";
  return SHARED.includes(to);
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
    for (const d of DOMAINS.filter((d) => d !== "web"))
      expect(
        [...files.keys()].some((f) => areaOf(f) === d),
        d,
      ).toBe(true);
  });

  it("domains import only the shared layers and themselves", () => {
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
