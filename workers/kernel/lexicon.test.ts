import { describe, expect, it } from "vitest";
import { ipaToEspeak } from "./ipa-espeak";
import { aliasText, entriesFor, espeakText, lexiconDigest, mergeLexicons, ssmlText, type LexiconEntry } from "./lexicon";

const nguyen: LexiconEntry = { grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: "Win" };
const sql: LexiconEntry = { grapheme: "SQL", phoneme: null, alias: "sequel" };
const nyc: LexiconEntry = { grapheme: "New York", phoneme: "nuː ˈjɔːk", alias: null };
const clicks: LexiconEntry = { grapheme: "Xhosa", phoneme: "ˈǁʰoːsa", alias: null }; // a click: outside the English table

describe("which entries apply to a text", () => {
  it("matches whole words as written, longest grapheme first, and names only entries found", () => {
    const lexicon = [nguyen, sql, nyc];
    expect(entriesFor(lexicon, "Ms Nguyen moved to New York.", "ssml").map((e) => e.grapheme)).toEqual(["New York", "Nguyen"]);
    expect(entriesFor(lexicon, "Nguyens and NGUYEN and sql are other words.", "ssml")).toEqual([]);
    expect(entriesFor(lexicon, "(SQL), Nguyen's", "ssml").map((e) => e.grapheme)).toEqual(["Nguyen", "SQL"]);
  });

  it("keeps only what each engine can say: aliases for alias engines, an IPA eSpeak can read or an alias for eSpeak", () => {
    const text = "Nguyen writes SQL in New York about Xhosa.";
    const lexicon = [nguyen, sql, nyc, clicks];
    expect(entriesFor(lexicon, text, "alias").map((e) => e.grapheme)).toEqual(["Nguyen", "SQL"]);
    expect(entriesFor(lexicon, text, "espeak").map((e) => e.grapheme)).toEqual(["New York", "Nguyen", "SQL"]);
    expect(entriesFor(lexicon, text, "ssml").map((e) => e.grapheme)).toEqual(["New York", "Nguyen", "SQL", "Xhosa"]);
  });

  it("digests the applied entries (null for none), and a publisher's entry replaces a global one of the same grapheme", async () => {
    expect(await lexiconDigest([])).toBeNull();
    expect(await lexiconDigest([nguyen])).toMatch(/^[0-9a-f]{64}$/);
    expect(await lexiconDigest([nguyen])).not.toBe(await lexiconDigest([{ ...nguyen, alias: "Nwin" }]));
    const own = { grapheme: "SQL", phoneme: null, alias: "S Q L" };
    expect(mergeLexicons([nguyen, sql], [own])).toEqual([nguyen, own]);
  });
});

describe("each engine gets the lexicon in its own language", () => {
  it("alias engines: the alias in place of the word", () => {
    expect(aliasText("Nguyen knows SQL.", [nguyen, sql])).toBe("Win knows sequel.");
  });

  it("SSML engines: the text escaped, <phoneme alphabet=ipa> where there is a transcription, else <sub alias>", () => {
    expect(ssmlText(`Nguyen & "SQL" <now>`, [nguyen, sql])).toBe(
      '<phoneme alphabet="ipa" ph="ˈŋwɪn">Nguyen</phoneme> &amp; &quot;<sub alias="sequel">SQL</sub>&quot; &lt;now&gt;',
    );
  });

  it("eSpeak: phoneme input in its mnemonics, the alias without a readable transcription, and the text's own [[ kept from starting phoneme input", () => {
    const spoken = espeakText("Nguyen wrote [[x]] in SQL about Xhosa.", [nguyen, sql, { ...clicks, alias: "Kosa" }]);
    expect(spoken.text).toBe("[['NwIn]] wrote [ x]] in sequel about Kosa.");
    // Every character maps back to where it came from in the text: a replacement to its word's start.
    expect(spoken.origin(0)).toBe(0);
    expect(spoken.origin(5)).toBe(0);
    expect(spoken.origin(spoken.text.indexOf("wrote"))).toBe("Nguyen wrote".indexOf("wrote"));
    expect(spoken.origin(spoken.text.indexOf("sequel") + 2)).toBe("Nguyen wrote [[x]] in SQL".indexOf("SQL"));
    expect(spoken.origin(spoken.text.indexOf("about"))).toBe("Nguyen wrote [[x]] in SQL about".indexOf("about"));
  });
});

describe("IPA to eSpeak mnemonics (English)", () => {
  it.each([
    ["ˈŋwɪn", "'NwIn"],
    ["/ˈwʊstər/", "'wUst@r"],
    ["ˈsiːkwəl", "'si:kw@l"],
    ["t͡ʃaɪˈkɒfski", "tSaI'k0fski"],
    ["ˌdʒɑːvəˈskrɪpt", ",dZA:v@'skrIpt"],
    ["ðə θɪŋ", "D@ TIN"],
    ["ˈmeɪ.ə", "'meI@"],
  ])("%s -> %s", (ipa, espeak) => {
    expect(ipaToEspeak(ipa)).toBe(espeak);
  });

  it("gives up on a symbol outside the table", () => {
    expect(ipaToEspeak("ǁʰoːsa")).toBeNull();
    expect(ipaToEspeak("")).toBeNull();
  });
});
