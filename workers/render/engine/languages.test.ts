import { describe, expect, it } from "vitest";
import { engineData, vendoredObject } from "../../../test/support/engine-data";
import espeakLanguages from "../../kernel/espeak-languages.json";
import { VOICES } from "../../kernel/voice-catalogue";
import { espeakPhonemes, languageData } from "./offline";

// Issue 42: every language the offline engine claims is spoken by that language's voice, proven by
// what eSpeak NG itself reports (its phonemes), never by the name we gave the voice.

const read = (path: string) => engineData(path.slice(path.lastIndexOf("/") + 1, -".bin".length));

/** The phonemes eSpeak says for `text` in the voice `native`, with its language's data (and the Japanese readings dictionary). */
const phonemes = async (text: string, native: string) => espeakPhonemes(text, native, [], await languageData(native, read), vendoredObject);

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

  it("reads French, Spanish, Italian and Portuguese years, dates and decimals by eSpeak's own rules, and German decimals", async () => {
    expect(await phonemes("le 14 juillet 1789", "fr")).toContain("kat'Orz Zyij'E mil sEtsA~ katr@vE~n'Wf");
    expect(await phonemes("el 2 de mayo", "es")).toContain("D'os De m'ajjo");
    expect(await phonemes("1989", "it")).toContain("m'ille novetS'Ento");
    expect(await phonemes("1989", "pt")).toContain("m'il_ n'Ovys'eINtuZ");
    expect(await phonemes("1.234,5", "de")).toContain("t'aUz@nt_! tsv'aIh'Und3t f'i:r _|Untdr'aIsIC _k,OmA: f'ynf");
  });

  it("reads Arabic-Indic digits as Western ones, and expands the abbreviations its dictionary knows", async () => {
    expect(await phonemes("٣", "ar")).toBe(await phonemes("3", "ar"));
    expect(await phonemes("Sr.", "es")).toBe(await phonemes("señor", "es"));
  });
});

// Issue 42: where eSpeak's rules read a number otherwise than the language does, the text is rewritten
// before it speaks (numbers.ts), each rule proven by the phonemes of what a speaker would write out.
describe("numbers and dates eSpeak would misread", () => {
  it("German years from 1100 to 1999 in hundreds, not as a cardinal; an amount stays a cardinal", async () => {
    expect(await phonemes("1989", "de")).toBe(await phonemes("neunzehnhundert 89", "de"));
    expect(await phonemes("1100", "de")).toBe(await phonemes("elfhundert", "de"));
    expect(await phonemes("1989 Euro", "de")).toContain("t'aUz@nt");
    expect(await phonemes("2024", "de")).toContain("tsv'aI t'aUz@nt");
  });

  it("German days before a month and centuries as ordinals, by their article", async () => {
    expect(await phonemes("am 3. Oktober 1990", "de")).toBe(await phonemes("am dritten Oktober neunzehnhundert neunzig", "de"));
    expect(await phonemes("der 3. Oktober", "de")).toBe(await phonemes("der dritte Oktober", "de"));
    expect(await phonemes("im 19. Jahrhundert", "de")).toBe(await phonemes("im neunzehnten Jahrhundert", "de"));
    expect(await phonemes("am 21. Mai", "de")).toBe(await phonemes("am einundzwanzigsten Mai", "de"));
  });

  it("French and Russian thousands grouped by a space read as one number", async () => {
    expect(await phonemes("1 234,5", "ru")).toBe(await phonemes("1234,5", "ru"));
    expect(await phonemes("1 234,5", "fr")).toBe(await phonemes("1234,5", "fr"));
    expect(await phonemes("12 апреля", "ru")).toContain("dv;In'AttsVt; ap@-r;'el;V");
  });

  it("Japanese digits, which eSpeak leaves silent, in kana", async () => {
    expect(await phonemes("1989", "ja")).toBe(await phonemes("せんきゅうひゃくはちじゅうきゅう", "ja"));
    expect(await phonemes("3,600", "ja")).toBe(await phonemes("さんぜんろっぴゃく", "ja"));
  });
});

// Issue 42: Japanese as people write it. Words in kanji are read by kuromoji's analysis (readings.ts)
// and given to eSpeak as kana; without it eSpeak says "Chinese letter" for each kanji.
describe("Japanese in kanji", () => {
  it("reads known kanji words as Japanese", async () => {
    expect(await phonemes("日本", "ja")).toContain("n'ippoN");
    expect(await phonemes("東京", "ja")).toContain("t,ouk_j'ou");
    const sentence = await phonemes("日本の首都は東京です。", "ja");
    expect(sentence).toBe(await phonemes("にっぽんのしゅとはとうきょうです。", "ja"));
    expect(sentence).not.toContain("(en)");
  });
});
