import { describe, expect, it } from "vitest";
import { engineData } from "../../../test/support/engine-data";
import espeakLanguages from "../../kernel/espeak-languages.json";
import { VOICES } from "../../kernel/voice-catalogue";
import { espeakPhonemes, languageData } from "./offline";

// Issue 42: every language the offline engine claims is spoken by that language's voice, proven by
// what eSpeak NG itself reports (its phonemes), never by the name we gave the voice.

const read = (path: string) => engineData(path.slice(path.lastIndexOf("/") + 1, -".bin".length));

/** The phonemes eSpeak says for `text` in the voice `native`, with its language's data. */
const phonemes = async (text: string, native: string) => espeakPhonemes(text, native, [], await languageData(native, read));

describe("the offline engine speaks every language it has data for", () => {
  it("offers a female and a male voice of each language", () => {
    for (const { language, voice } of espeakLanguages) {
      const offers = VOICES.filter((v) => v.provider === "offline" && v.language === language);
      expect(offers.map((o) => [o.gender, o.native])).toEqual([
        ["female", `${voice}+f3`],
        ["male", voice],
      ]);
    }
  });

  it("each language reads a number and a word its own way: its voice and dictionary were loaded, not English's", async () => {
    const probe = "7 amigo";
    const english = await espeakPhonemes(probe, "en-us");
    const same: string[] = [];
    for (const { voice } of espeakLanguages) {
      const said = await phonemes(probe, voice);
      if (!said || said === english) same.push(voice);
    }
    expect(same).toEqual([]);
  });

  it.each([
    ["de", "Haus", "h'aUs"],
    ["es", "gracias", "g**'aTjas"],
    ["ru", "спасибо", "spas;'ibV"],
    ["ja", "ありがとう", ",ar`igat'ou"],
    ["ar", "شكرا", "S"],
  ])("%s says %s as %s", async (voice, word, expected) => {
    expect(await phonemes(word, voice)).toContain(expected);
  });
});

// Issue 42 item 4: numbers and abbreviations are read as the language reads them, by eSpeak NG's own
// rules (docs/narration.md "Languages"), proven by its phonemes; English reads "21" as tw'Ent2i w'Vn.
describe("numbers and abbreviations in the article's language", () => {
  it.each([
    ["de", "21", ["'aIn", "Unt", "tsv'antsIC"]],
    ["de", "1999", ["t'aUz@nt", "n'OYnh'Und3t"]],
    ["es", "21", ["b,eInti", "uno"]],
    ["es", "1999", ["m'il", "n,oBeTj'Entos"]],
    ["ru", "21", ["dv'AttsVt", "d;'in"]],
    ["ru", "1999", ["t'ys;V", "dev;ats'ot"]],
    ["ar", "21", ["w,aaH,id", "waA'iSru"]],
  ])("%s reads %s in its own words", async (voice, digits, expected) => {
    const said = await phonemes(digits, voice);
    for (const part of expected) expect(said).toContain(part);
    expect(said).not.toContain("tw'Ent");
  });

  it("reads Arabic-Indic digits as Western ones, and expands the abbreviations its dictionary knows", async () => {
    expect(await phonemes("٣", "ar")).toBe(await phonemes("3", "ar"));
    expect(await phonemes("Sr.", "es")).toBe(await phonemes("señor", "es"));
  });
});
