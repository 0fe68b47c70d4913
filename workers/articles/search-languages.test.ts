import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";

// Search in every language (issue 42 item 6; migrations/0028_search_languages.sql).
const bypass = { headers: { "x-service-search-cache": "bypass" } };
type Body = { language: string | null; results: { slug: string; snippet: string }[] };

async function search(query: string): Promise<Body> {
  const res = await call(`/v1/stories/search?${query}&expand=false`, bypass);
  expect(res.status, query).toBe(200);
  return res.json<Body>();
}
const slugs = async (query: string) => (await search(query)).results.map((r) => r.slug);

describe("GET /v1/stories/search: languages", () => {
  it("folds German diacritics both ways: Munchen and münchen find München", async () => {
    const de = await addArticle({
      title: "Neue Straßenbahn für München",
      bodyText: "Die Stadtwerke eröffnen im Frühjahr eine Linie über den Königsplatz.",
      language: "de",
    });
    await addArticle({ title: "Munich tram news", bodyText: "Nothing about the city above." });
    for (const q of ["Munchen", "münchen", "MÜNCHEN", "Konigsplatz", "Frühjahr", "fruhjahr"])
      expect(await slugs(`q=${encodeURIComponent(q)}`), q).toEqual([de.slug]);
    expect((await search("q=Munchen")).results[0].snippet).toContain("<mark>München</mark>");
  });

  it("finds Japanese words inside text without spaces, short words too, and only where they occur", async () => {
    const tokyo = await addArticle({
      title: "東京の天気予報",
      bodyText: "気象庁によると、明日の東京は晴れて気温が上がる見込みです。",
      language: "ja",
    });
    const osaka = await addArticle({ title: "大阪の新しい図書館", bodyText: "大阪市は新しい図書館を来月開館すると発表しました。", language: "ja" });
    expect(await slugs(`q=${encodeURIComponent("気象庁")}`)).toEqual([tokyo.slug]);
    expect(await slugs(`q=${encodeURIComponent("東京")}`)).toEqual([tokyo.slug]);
    expect(await slugs(`q=${encodeURIComponent("図書館")}`)).toEqual([osaka.slug]);
    expect(await slugs(`q=${encodeURIComponent("東京 晴れ")}`)).toEqual([tokyo.slug]);
    expect(await slugs(`q=${encodeURIComponent("東京 図書館")}`)).toEqual([]);
    expect((await search(`q=${encodeURIComponent("気象庁")}`)).results[0].snippet).toContain("<mark>");
  });

  it("finds Arabic words", async () => {
    const ar = await addArticle({
      title: "الحكومة تعلن خطة الطاقة الشمسية",
      bodyText: "أعلنت الحكومة اليوم عن خطة جديدة لبناء محطات الطاقة الشمسية في الصحراء.",
      language: "ar",
    });
    await addArticle({ title: "Solar plan", bodyText: "An English article about the same plan." });
    expect(await slugs(`q=${encodeURIComponent("الطاقة الشمسية")}`)).toEqual([ar.slug]);
    expect(await slugs(`q=${encodeURIComponent("الصحراء")}`)).toEqual([ar.slug]);
  });

  it("narrows results to a language, by primary subtag, and says so", async () => {
    const de = await addArticle({ title: "Tesla baut in Berlin", bodyText: "Ein Werk.", language: "de" });
    const at = await addArticle({ title: "Tesla in Wien", bodyText: "Ein Büro.", language: "de-AT" });
    const en = await addArticle({ title: "Tesla builds in Texas", bodyText: "A plant.", language: "en" });
    expect((await slugs("q=tesla")).sort()).toEqual([de.slug, at.slug, en.slug].sort());
    expect((await slugs("q=tesla&language=de")).sort()).toEqual([de.slug, at.slug].sort());
    expect(await slugs("q=tesla&language=de-AT")).toEqual([at.slug]);
    expect(await slugs("q=tesla&language=en")).toEqual([en.slug]);
    expect((await search("q=tesla&language=de")).language).toBe("de");
    const ja = await addArticle({ title: "東京の天気", bodyText: "晴れ。", language: "ja" });
    expect(await slugs(`q=${encodeURIComponent("東京")}&language=ja`)).toEqual([ja.slug]);
    expect(await slugs(`q=${encodeURIComponent("東京")}&language=de`)).toEqual([]);
  });

  it("answers 422 to a language that is not a BCP 47 tag", async () => {
    const res = await call("/v1/stories/search?q=tesla&language=not_a_tag!", bypass);
    expect(res.status).toBe(422);
  });
});
