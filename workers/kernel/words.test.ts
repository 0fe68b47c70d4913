import { describe, expect, it } from "vitest";
import { alignWords, estimatedWords } from "./word-timings";
import { joinWords, wordsOf, wordTokens } from "./words";

// Words where spaces do not separate them (issue 42 item 4): word timings, highlights and transcripts.
describe("kernel/words.ts", () => {
  it("cuts Japanese, Chinese and Thai at their word boundaries, punctuation with the word before", () => {
    expect(wordsOf("東京の天気は晴れです。")).toEqual(["東京", "の", "天気", "は", "晴れ", "です。"]);
    expect(wordsOf("我们明天去北京。")).toEqual(["我们", "明天", "去", "北京。"]);
    expect(wordsOf("ภาษาไทยง่ายนิดเดียว")).toEqual(["ภาษา", "ไทย", "ง่าย", "นิด", "เดียว"]);
  });

  it("leaves spaced scripts as whitespace-separated tokens", () => {
    expect(wordsOf("Die Straße, sagte er, ist „gesperrt“.")).toEqual(["Die", "Straße,", "sagte", "er,", "ist", "„gesperrt“."]);
    expect(wordsOf("أعلنت الحكومة خطة جديدة.")).toEqual(["أعلنت", "الحكومة", "خطة", "جديدة."]);
  });

  it("gives every word its place in the text, so the pages keep what lies between words", () => {
    const text = "NHKの報道 today";
    const tokens = wordTokens(text);
    expect(tokens.map((t) => t.text)).toEqual(["NHK", "の", "報道", "today"]);
    for (const t of tokens) expect(text.slice(t.from, t.to)).toBe(t.text);
  });

  it("writes words back without spaces inside an unspaced script", () => {
    expect(joinWords(wordsOf("東京の天気は晴れです。"))).toBe("東京の天気は晴れです。");
    expect(joinWords(["Hello,", "world."])).toBe("Hello, world.");
  });

  it("times each Japanese word: estimated by characters, and aligned to the engine's words", () => {
    const paragraph = "東京の天気は晴れです。";
    const [estimated] = estimatedWords([paragraph], [0], 6);
    expect(estimated.map((w) => w.text)).toEqual(wordsOf(paragraph));
    expect(estimated.every((w, i) => i === 0 || w.start >= estimated[i - 1].end)).toBe(true);
    const stored = wordsOf(paragraph).map((text, i) => ({ text, start: i, end: i + 0.9, paragraph: 0 }));
    const [aligned] = alignWords([paragraph], stored);
    expect(aligned?.map((w) => [w.text, w.start])).toEqual(wordsOf(paragraph).map((w, i) => [w, i]));
  });
});
