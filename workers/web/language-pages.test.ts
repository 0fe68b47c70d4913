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

describe("the player's words in the article's language (workers/web/player-words.ts)", () => {
  /** The player's labels as a page shows them. */
  const labels = (html: string) => ({
    group: /role="group" aria-label="([^"]+)"/.exec(html)?.[1],
    play: /data-action="play" aria-label="([^"]+)"/.exec(html)?.[1],
    speed: /<label class="speed">([^<]+) </.exec(html)?.[1],
    keys: /<p id="text-keys" class="visually-hidden">([^<]+)</.exec(html)?.[1],
    words: JSON.parse((/data-words="([^"]+)"/.exec(html)?.[1] ?? "{}").replaceAll("&quot;", '"')) as Record<string, string>,
    marked: /<div class="player" data-player( lang="[^"]+")?/.exec(html)?.[1] ?? "",
  });

  it.each([
    ["de", "Abspielen", "Tempo", "Pause"],
    ["es", "Reproducir", "Velocidad", "Pausa"],
    ["fr", "Lire", "Vitesse", "Pause"],
    ["ja", "再生", "速度", "一時停止"],
    ["ar", "تشغيل", "السرعة", "إيقاف مؤقت"],
    ["ru", "Воспроизвести", "Скорость", "Пауза"],
    ["pt-BR", "Reproduzir", "Velocidade", "Pausar"],
  ])("a %s article's page and embed say play, speed and pause in it", async (language, play, speed, pause) => {
    const { article } = await addNarratedArticle({ language });
    for (const path of [`/articles/${article.slug}`, `/embed/article/${article.slug}`]) {
      const found = labels(await (await openPage(path)).text());
      expect(found, path).toMatchObject({ play, speed, marked: "" });
      expect(found.words.pause, path).toBe(pause);
      expect(found.keys, path).not.toContain("arrow keys");
    }
  });

  it("an article in a language the player does not speak gets English words, marked English", async () => {
    const { article } = await addNarratedArticle({ language: "sw" });
    for (const path of [`/articles/${article.slug}`, `/embed/article/${article.slug}`]) {
      const html = await (await openPage(path)).text();
      expect(html).toContain('<html lang="sw" dir="ltr">');
      expect(labels(html), path).toMatchObject({ group: "Player", play: "Play", speed: "Speed", marked: ' lang="en"' });
    }
  });

  it("the embed snippet's title and the embed's text region are in the article's language", async () => {
    const { article } = await addNarratedArticle({ language: "de", title: "Die Brücke" });
    expect(await (await openPage(`/articles/${article.slug}`)).text()).toContain("title=&quot;Anhören: Die Brücke&quot;");
    expect(await (await openPage(`/embed/article/${article.slug}`)).text()).toContain('aria-label="Text des Artikels"');
  });
});
