import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { addNarratedArticle, openPage } from "../../test/support/web";

const oembed = (params: Record<string, string>) => openPage(`/oembed?${new URLSearchParams(params)}`);

/** oEmbed (https://oembed.com) for the player: a CMS that pastes an article URL gets the iframe. */
describe("oEmbed", () => {
  it("answers a rich JSON response with the player iframe for an article page or embed URL (§2.3)", async () => {
    const { article } = await addNarratedArticle({ title: "Rain <Maps>", publisher: "Weather Desk" });
    for (const url of [`https://web.test/articles/${article.slug}`, `https://web.test/embed/article/${article.slug}`]) {
      const res = await oembed({ url, format: "json" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = await res.json<Record<string, unknown>>();
      expect(body).toMatchObject({
        version: "1.0",
        type: "rich",
        title: "Rain <Maps>",
        author_name: "Weather Desk",
        provider_name: "Narration",
        width: 600,
        height: 420,
      });
      expect(body.html).toBe(
        `<iframe src="https://web.test/embed/article/${article.slug}" title="Listen: Rain &lt;Maps&gt;" width="600" height="420" style="border:0;max-width:100%" loading="lazy" allow="autoplay; encrypted-media"></iframe>`,
      );
    }
  });

  it("keeps within maxwidth and maxheight (§2.2)", async () => {
    const { article } = await addNarratedArticle();
    const body = await (await oembed({ url: `https://web.test/articles/${article.slug}`, maxwidth: "320", maxheight: "300" })).json<Record<string, unknown>>();
    expect(body).toMatchObject({ width: 320, height: 300 });
    expect(body.html).toContain('width="320" height="300"');
  });

  it("is found from the article page by its discovery link (§4)", async () => {
    const { article } = await addNarratedArticle();
    const html = await (await openPage(`/articles/${article.slug}`)).text();
    const href = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html)![1].replace(/&amp;/g, "&");
    expect(new URL(href).searchParams.get("url")).toBe(`https://web.test/articles/${article.slug}`);
    expect((await openPage(href)).status).toBe(200);
  });

  it("refuses other formats (501), bad sizes (400), and URLs of no embeddable article (404)", async () => {
    const { article } = await addNarratedArticle();
    const stub = await addNarratedArticle({ visibility: "publisher_only" });
    const priv = await addArticle({ visibility: "listener_private" });
    const silent = await addArticle();
    expect((await oembed({ url: `https://web.test/articles/${article.slug}`, format: "xml" })).status).toBe(501);
    expect((await oembed({ url: `https://web.test/articles/${article.slug}`, maxwidth: "-3" })).status).toBe(400);
    expect((await oembed({})).status).toBe(400);
    for (const url of [
      `https://elsewhere.test/articles/${article.slug}`,
      "https://web.test/articles/missing",
      `https://web.test/articles/${stub.article.slug}`,
      `https://web.test/articles/${priv.slug}`,
      `https://web.test/articles/${silent.slug}`,
      "not a url",
    ]) {
      const res = await oembed({ url });
      expect(res.status, url).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
  });
});
