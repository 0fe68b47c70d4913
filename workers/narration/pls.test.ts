import { describe, expect, it } from "vitest";
import { fromPls, PLS_NAMESPACE, PlsError, toPls } from "./pls";

const entries = [
  { grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: null },
  { grapheme: "SQL", phoneme: null, alias: "sequel" },
  { grapheme: "AT&T", phoneme: "ˌeɪ tiː ən ˈtiː", alias: "A T and T" },
];

describe("W3C PLS 1.0", () => {
  it("writes a lexicon with alphabet ipa, one lexeme per entry, and reads it back the same", () => {
    const xml = toPls(entries);
    expect(xml).toContain(`<lexicon version="1.0" xmlns="${PLS_NAMESPACE}" alphabet="ipa" xml:lang="en-US">`);
    expect(xml).toContain("<grapheme>AT&amp;T</grapheme>");
    expect(fromPls(xml)).toEqual(entries);
  });

  it("reads several graphemes of one lexeme, the first phoneme and alias, entities, CDATA and comments; a prefixed namespace too", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- from a newsroom style guide -->
<pls:lexicon version="1.0" xmlns:pls="${PLS_NAMESPACE}" xml:lang="en-GB" alphabet="x-sampa">
  <pls:lexeme>
    <pls:grapheme>Worcester</pls:grapheme>
    <pls:grapheme>Worcestershire</pls:grapheme>
    <pls:phoneme alphabet="ipa">&#x2C8;w&#x28A;st&#x259;</pls:phoneme>
    <pls:phoneme alphabet="ipa">ˈwʊstɚ</pls:phoneme>
  </pls:lexeme>
  <pls:lexeme><pls:grapheme><![CDATA[R&D]]></pls:grapheme><pls:alias>R and D</pls:alias><pls:alias>research</pls:alias></pls:lexeme>
</pls:lexicon>`;
    expect(fromPls(xml)).toEqual([
      { grapheme: "Worcester", phoneme: "ˈwʊstə", alias: null },
      { grapheme: "Worcestershire", phoneme: "ˈwʊstə", alias: null },
      { grapheme: "R&D", phoneme: null, alias: "R and D" },
    ]);
  });

  it.each([
    [
      "another alphabet",
      `<lexicon version="1.0" alphabet="x-sampa"><lexeme><grapheme>a</grapheme><phoneme>eI</phoneme></lexeme></lexicon>`,
      /alphabet "x-sampa"/,
    ],
    ["a DOCTYPE (no entities are declared or expanded)", `<!DOCTYPE lexicon [<!ENTITY x SYSTEM "file:///etc/passwd">]><lexicon alphabet="ipa"/>`, /DOCTYPE/],
    ["an undeclared entity", `<lexicon alphabet="ipa"><lexeme><grapheme>&x;</grapheme><alias>a</alias></lexeme></lexicon>`, /unknown entity/],
    ["a lexeme with no pronunciation", `<lexicon alphabet="ipa"><lexeme><grapheme>a</grapheme></lexeme></lexicon>`, /neither/],
    ["a lexeme with no grapheme", `<lexicon alphabet="ipa"><lexeme><alias>a</alias></lexeme></lexicon>`, /without a <grapheme>/],
    ["another root", `<speak/>`, /not <lexicon>/],
    ["unbalanced tags", `<lexicon alphabet="ipa"><lexeme></lexicon>`, /not well-formed/],
    ["not XML", `sample`, /not well-formed/],
  ])("refuses %s", (_, xml, message) => {
    expect(() => fromPls(xml)).toThrow(PlsError);
    expect(() => fromPls(xml)).toThrow(message);
  });
});
