import { describe, expect, it } from "vitest";
import { addNarratedArticle, openPage } from "../../test/support/web";
import { textDirection } from "../kernel/language";

// ../shared/DESIGN.md "Contracts added in turn 4", Languages: article pages and the embed set lang and
// dir, so right-to-left scripts read (and highlight) right to left.

describe("pages in the article's language", () => {
  it.each([
    ["ar", "rtl"],
    ["de", "ltr"],
    ["ja", "ltr"],
  ])("a %s article's page and embed say lang=%s and dir=%s", async (language, dir) => {
    const { article } = await addNarratedArticle({ language });
    for (const path of [`/articles/${article.slug}`, `/embed/article/${article.slug}`]) {
      const html = await (await openPage(path)).text();
      expect(html, path).toContain(`<html lang="${language}" dir="${dir}">`);
    }
  });

  it("an English article's page says so too", async () => {
    const { article } = await addNarratedArticle();
    expect(await (await openPage(`/articles/${article.slug}`)).text()).toContain('<html lang="en" dir="ltr">');
  });

  it("reads the direction from the language's script", () => {
    expect(["ar", "he", "fa", "ur", "yi", "fa-Latn", "ru", "zh"].map(textDirection)).toEqual(["rtl", "rtl", "rtl", "rtl", "rtl", "ltr", "ltr", "ltr"]);
  });
});
