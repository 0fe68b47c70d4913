/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

/**
 * Every document and section the code and the docs cite, and every repository path the docs name,
 * exists: a citation that no longer leads anywhere is drift (a reader of this repository must be able
 * to open what a comment cites).
 */
const texts = import.meta.glob(
  [
    "../README.md",
    "../docs/**/*.md",
    "../bench/README.md",
    "../workers/**/*.{ts,toml}",
    "../durable-objects/**/*.ts",
    "../scripts/**/*.mjs",
    "../bench/*.mjs",
    "../test/**/*.ts",
    "../test-browser/**/*.mjs",
    "../wrangler.toml",
    "!../**/vendor/**",
    "!../**/node_modules/**",
  ],
  { query: "?raw", import: "default", eager: true },
) as Record<string, string>;

/** A glob key (relative to this file, in test/) as a path from the repository's root. */
const fromRoot = (key: string) => (key.startsWith("./") ? `test/${key.slice(2)}` : key.slice(3));

/** Every file of the repository by path (no contents are loaded), and every folder above one. */
const files = new Set(
  Object.keys(import.meta.glob(["../**/*", "../.ci/*", "../.dev.vars.example", "!../node_modules/**", "!../.wrangler/**", "!../.git/**"])).map(fromRoot),
);
const folders = new Set(
  [...files].flatMap((f) =>
    f
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);

const byPath = Object.fromEntries(Object.entries(texts).map(([key, text]) => [fromRoot(key), text]));
const docOf = (path: string) => byPath[path];

/**
 * The sections of a Markdown document: its headings, and its bold labels (`**Rate limits** (per
 * client IP ...`), which the docs use as sections within a section.
 */
const headings = (markdown: string) => [
  ...[...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].trim()),
  ...[...markdown.matchAll(/\*\*([^*]+?)\.?\*\*/g)].map((m) => m[1].trim()),
];

/** A section is cited by its heading or by the heading's first words ("Rules" for "Rules the service keeps"). */
const hasSection = (markdown: string, cited: string) =>
  headings(markdown).some((h) => h === cited || (h.startsWith(cited) && /^[\s:(,]/.test(h.slice(cited.length))));

const CITATION = /(?<![\w/.-])(README|docs\/[\w/-]+\.md|bench\/README(?:\.md)?)(?:,|:|'s)? \(?"([^"]{1,80})"/g;
const PATH = /`((?:workers|scripts|test|test-browser|bench|durable-objects|migrations|docs)\/[^`\s]*?)`/g;

describe("citations resolve", () => {
  const cases = Object.entries(byPath).flatMap(([file, text]) =>
    [...text.matchAll(CITATION)].map((m) => ({ file, doc: m[1], section: m[2].replace(/\s*\n\s*(?:\/\/|\*)?\s*/g, " ") })),
  );

  it("finds the citations it checks", () => {
    expect(cases.length).toBeGreaterThan(50);
  });

  it("every cited document exists and has the cited section", () => {
    const broken = cases.filter(({ doc, section }) => {
      const path = doc === "README" ? "README.md" : doc.endsWith(".md") ? doc : `${doc}.md`;
      const markdown = docOf(path);
      return markdown === undefined || !hasSection(markdown, section);
    });
    expect(broken.map(({ file, doc, section }) => `${file}: ${doc} "${section}"`)).toEqual([]);
  });

  it("every repository path the README and docs name exists (placeholders and patterns aside)", () => {
    const broken = Object.entries(byPath)
      .filter(([file]) => file.endsWith(".md"))
      .flatMap(([file, text]) =>
        [...text.matchAll(PATH)]
          .map((m) => m[1].replace(/[/:]+$/, "").replace(/:\d+(-\d+)?$/, ""))
          .filter((path) => !/[<>*]|\.\.\./.test(path) && !files.has(path) && !folders.has(path))
          .map((path) => `${file}: ${path}`),
      );
    expect(broken).toEqual([]);
  });

  it("every source file a comment in the code names exists", () => {
    // A path from the root (workers/core/text.ts), from workers/, or from the folder of the file or one above it
    // (core/text.ts in workers/, x402/prices.ts in workers/agents/), as comments write them. Markdown
    // outside docs/ is another repository's, cited with its name.
    const resolves = (file: string, path: string) =>
      files.has(path) || files.has(`workers/${path}`) || file.split("/").some((_, i, parts) => files.has(`${parts.slice(0, i).join("/")}/${path}`));
    const NAMED =
      /(?<![\w/.{$-])((?:workers|scripts|test|test-browser|bench|durable-objects|migrations|docs|[a-z][\w-]*)\/[\w./{}-]*?\.(?:ts|mjs|md|toml|sql|html|css))(?![\w/])/g;
    const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
    const broken = Object.entries(byPath)
      .filter(([file]) => /\.(ts|mjs)$/.test(file))
      .flatMap(([file, text]) =>
        [...text.matchAll(COMMENT)]
          .flatMap((c) => [...c[0].matchAll(NAMED)].map((m) => m[1]))
          .filter((path) => !/[<>*]|\.\.\./.test(path) && !(path.endsWith(".md") && !path.startsWith("docs/")) && !resolves(file, path))
          .map((path) => `${file}: ${path}`),
      );
    expect(broken).toEqual([]);
  });
});
