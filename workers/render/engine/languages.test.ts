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
