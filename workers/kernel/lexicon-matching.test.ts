import { describe, expect, it } from "vitest";
import { aliasText, composed, entriesFor, espeakText, type LexiconEntry, ssmlText } from "./lexicon";

/**
 * How a grapheme is found in a text (issue 46). Every engine's rewriter looks up the entry of each match
 * by its exact grapheme, so the matcher must be case-sensitive (PLS graphemes match as written), and it
 * builds one regular expression of all graphemes, so each must be escaped. Planted bugs these catch:
 * the "gu" flags turned into "giu" (a text with "Nguyen" and "NGUYEN" then makes every rewriter throw),
 * and escapeRegExp left out (one entry "C++" then breaks every render that reads the lexicon).
 */

const nguyen: LexiconEntry = { grapheme: "Nguyen", phoneme: "ŋwiən", alias: "Win" };

describe("the lexicon matches graphemes case as written", () => {
  const text = "Nguyen met NGUYEN and nguyen.";

  it("finds only the grapheme as written", () => {
    expect(entriesFor([nguyen], text, "alias")).toEqual([nguyen]);
    expect(entriesFor([nguyen], "NGUYEN and nguyen.", "alias")).toEqual([]);
    expect(entriesFor([nguyen], "NGUYEN and nguyen.", "ssml")).toEqual([]);
  });

  it("rewrites only the grapheme as written, for every engine, without throwing", () => {
    expect(aliasText(text, [nguyen])).toBe("Win met NGUYEN and nguyen.");
    expect(ssmlText(text, [nguyen])).toBe('<phoneme alphabet="ipa" ph="ŋwiən">Nguyen</phoneme> met NGUYEN and nguyen.');
    const espeak = espeakText(text, [{ ...nguyen, phoneme: null }]);
    expect(espeak.text).toBe("Win met NGUYEN and nguyen.");
  });
});

describe("the lexicon escapes graphemes before they become a regular expression", () => {
  const cpp: LexiconEntry = { grapheme: "C++", phoneme: null, alias: "C plus plus" };
  const us: LexiconEntry = { grapheme: "U.S.", phoneme: null, alias: "United States" };

  it('an entry "C++" is found and said, for every engine', () => {
    const text = "She writes C++ and C.";
    expect(entriesFor([cpp], text, "alias")).toEqual([cpp]);
    expect(aliasText(text, [cpp])).toBe("She writes C plus plus and C.");
    expect(ssmlText(text, [cpp])).toBe('She writes <sub alias="C plus plus">C++</sub> and C.');
    expect(espeakText(text, [cpp]).text).toBe("She writes C plus plus and C.");
  });

  it("a grapheme's dots match dots only, not any character", () => {
    expect(entriesFor([us], "The UxSx team.", "alias")).toEqual([]);
    expect(aliasText("The UxSx team.", [us])).toBe("The UxSx team.");
    expect(aliasText("The U.S. team.", [us])).toBe("The United States team.");
  });

  it("one such entry among others leaves the others working", () => {
    expect(aliasText("Nguyen writes C++.", [cpp, nguyen, us])).toBe("Win writes C plus plus.");
  });
});

describe("the longest grapheme wins where two start at the same word", () => {
  const york: LexiconEntry = { grapheme: "New York", phoneme: null, alias: "the Big Apple" };
  const newer: LexiconEntry = { grapheme: "New", phoneme: null, alias: "Fresh" };

  it("whatever the order of the lexicon", () => {
    const text = "New York is New.";
    for (const lexicon of [
      [newer, york],
      [york, newer],
    ]) {
      expect(aliasText(text, lexicon)).toBe("the Big Apple is Fresh.");
      expect(ssmlText(text, lexicon)).toBe('<sub alias="the Big Apple">New York</sub> is <sub alias="Fresh">New</sub>.');
      expect(espeakText(text, lexicon).text).toBe("the Big Apple is Fresh.");
    }
  });
});

describe("a lexicon with no entry for an engine leaves the text as it is", () => {
  it("for eSpeak, where only the text's own [[ is kept from starting phoneme input", () => {
    expect(espeakText("Plain text.", []).text).toBe("Plain text.");
    expect(espeakText("a [[b]] c.", []).text).toBe("a [ b]] c.");
    expect(entriesFor([], "Plain text.", "espeak")).toEqual([]);
    // "null" is what a missing pattern becomes if it ever reaches matchAll().
    expect(espeakText("A null result.", []).text).toBe("A null result.");
  });

  it("for SSML engines, where the text is still XML-escaped", () => {
    expect(ssmlText("A null result: a < b & c.", [])).toBe("A null result: a &lt; b &amp; c.");
  });

  it("for eSpeak, where an alias is words, never phoneme input", () => {
    expect(espeakText("Nguyen met.", [{ ...nguyen, phoneme: null, alias: "[[w'In]]" }]).text).toBe("[ w'In]] met.");
  });

  it("for eSpeak, where an entry with only a transcription eSpeak cannot read says its word as written", () => {
    expect(espeakText("Nguyen met.", [{ ...nguyen, phoneme: "☃", alias: null }]).text).toBe("Nguyen met.");
  });

  it("for engines that take only words, where an entry with only a phoneme says its word as written", () => {
    expect(aliasText("Nguyen met.", [{ ...nguyen, alias: null }])).toBe("Nguyen met.");
  });
});

describe("SSML is escaped inside a phoneme or sub element as around it", () => {
  it("the grapheme as its text and the transcription as its attribute", () => {
    const att: LexiconEntry = { grapheme: "AT&T", phoneme: 'eɪ"><x', alias: null };
    expect(ssmlText("AT&T <3", [att])).toBe('<phoneme alphabet="ipa" ph="eɪ&quot;&gt;&lt;x">AT&amp;T</phoneme> &lt;3');
  });

  it("the grapheme as its text and the alias as its attribute", () => {
    const rd: LexiconEntry = { grapheme: "R&D", phoneme: null, alias: 'R "and" <D>' };
    expect(ssmlText("R&D", [rd])).toBe('<sub alias="R &quot;and&quot; &lt;D&gt;">R&amp;D</sub>');
  });
});

describe("each character of a rewritten text traces back to the original", () => {
  it("every character outside a replacement to its own, a replacement's to the start of its word", () => {
    const original = "Say Nguyen, now.";
    const spoken = espeakText(original, [{ ...nguyen, phoneme: null }]);
    expect(spoken.text).toBe("Say Win, now.");
    const origins = Array.from(spoken.text, (_, i) => spoken.origin(i));
    expect(origins).toEqual([0, 1, 2, 3, 4, 4, 4, 10, 11, 12, 13, 14, 15]);
    expect(espeakText("", [nguyen]).origin(0)).toBe(0);
  });

  it("through two rewrites in turn", () => {
    const first = espeakText("Say Nguyen, now.", [{ ...nguyen, phoneme: null }]);
    const second = espeakText(first.text, [{ grapheme: "now", phoneme: null, alias: "today" }]);
    const both = composed(first, second);
    expect(both.text).toBe("Say Win, today.");
    expect(Array.from(both.text, (_, i) => both.origin(i))).toEqual([0, 1, 2, 3, 4, 4, 4, 10, 11, 12, 12, 12, 12, 12, 15]);
  });
});
