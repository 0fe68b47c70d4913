import { describe, expect, it } from "vitest";
import { cleanText, escapeHtml, textProblem, xmlSafe } from "./text";

describe("text checks (XML 1.0 section 2.2, Char)", () => {
  it("refuses controls everywhere, line breaks outside prose, and unpaired surrogates", () => {
    for (const c of ["\u0000", "\u0007", "\u001b", "\u007f", "\u0085", "\uffff", "\ud800", "\udc00"]) {
      expect(textProblem(`a${c}b`, true), `U+${c.charCodeAt(0).toString(16)}`).not.toBeNull();
    }
    for (const c of ["\t", "\n", "\r"]) {
      expect(textProblem(`a${c}b`, true)).toBeNull();
      expect(textProblem(`a${c}b`, false)).not.toBeNull();
    }
    expect(textProblem("Tide 🌊 tables, café", false)).toBeNull();
  });

  it("says which rule the text broke, as the 422 body shows it", () => {
    expect(textProblem("a\u0000b", true)).toBe("text must not contain control characters");
    expect(textProblem("a\nb", false)).toBe("text must not contain control characters");
    expect(textProblem("a\ud800b", true)).toBe("text must not contain unpaired UTF-16 surrogates");
  });

  it("cleans outside text: controls dropped, a pair cut in half replaced", () => {
    expect(cleanText("Tide\u0000 tables\u0007\n")).toBe("Tide tables\n");
    expect(cleanText("wave 🌊".slice(0, 6))).toBe("wave \ufffd");
  });

  it("keeps an XML document free of what XML forbids, and pairs intact", () => {
    expect(xmlSafe("<t>a\u0000b\ud800c🌊\udc00\uffff</t>")).toBe("<t>abc🌊</t>");
  });
});

/**
 * Every page, mail, feed and SSML document escapes through escapeHtml: each of the five characters
 * that open markup or end a quoted attribute becomes its entity, and nothing else changes. Killed
 * mutants (npm run mutation): an entity emptied, the class negated.
 */
describe("escapeHtml", () => {
  it("turns & < > \" ' into entities, whichever quote an attribute uses", () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')">&amp;`)).toBe("&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;amp;");
  });

  it("leaves every other character as it is", () => {
    expect(escapeHtml("Tide 🌊 tables, café; 2 + 2 = 4 — ok")).toBe("Tide 🌊 tables, café; 2 + 2 = 4 — ok");
  });
});
