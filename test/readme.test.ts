/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import readme from "../README.md?raw";

/** The README's command examples: fenced code blocks and indented code lines. */
function examples(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  const indented = markdown.split("\n").filter((line) => /^ {4}\S/.test(line));
  return [...fenced, ...indented];
}

describe("README examples follow the server wherever PORT puts it", () => {
  it("sets BASE once from PORT and sends every example request to $BASE, none to a fixed address", () => {
    expect(readme.match(/^\s*BASE=/gm)).toEqual(["BASE="]);
    expect(readme).toContain("BASE=http://127.0.0.1:${PORT:-8787}");
    for (const example of examples(readme)) {
      expect(example).not.toMatch(/(127\.0\.0\.1|localhost):\d+/);
      for (const line of example.split("\n").filter((l) => /\bcurl\b/.test(l))) expect(line).toContain("$BASE");
    }
  });

  it("says on its first screen where the demo content is: home page, a feed URL and an audio URL", () => {
    const firstScreen = readme.split("\n").slice(0, 40).join("\n");
    expect(firstScreen).toContain("`$BASE/`");
    expect(firstScreen).toContain("$BASE/v1/podcasts/service.xml");
    expect(firstScreen).toMatch(/\$BASE\/v1\/audio\/\{key\}\.mp3/);
  });
});
