import { describe, expect, it } from "vitest";
import { splitText } from "./chunk";

describe("splitText", () => {
  it("keeps text within the limit in one piece", () => {
    expect(splitText("One. Two. Three.", 100)).toEqual(["One. Two. Three."]);
  });

  it("cuts only between sentences, packing as many as fit", () => {
    const text = "The first sentence is here. The second one follows! Is this the third? Yes.";
    const pieces = splitText(text, 40);
    expect(pieces).toEqual(["The first sentence is here.", "The second one follows!", "Is this the third? Yes."]);
    expect(pieces.join(" ")).toBe(text);
  });

  it("cuts a sentence longer than the limit between words, and a longer word hard", () => {
    const pieces = splitText("alpha beta gamma delta epsilon. Supercalifragilistic.", 12);
    expect(pieces.every((p) => p.length <= 12)).toBe(true);
    expect(pieces).toEqual(["alpha beta", "gamma delta", "epsilon.", "Supercalifra", "gilistic."]);
  });

  it("never yields empty pieces", () => {
    expect(splitText("   ", 10)).toEqual([]);
  });
});
