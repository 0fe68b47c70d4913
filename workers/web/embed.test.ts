import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { addNarratedArticle, openPage } from "../../test/support/web";

/** The embeddable player at {WEB_URL}/embed/article/{slug} (README "Web front-end"). */
describe("embed player page", () => {
  it("may be framed by any site and runs only its own origin's scripts", async () => {
    const { article } = await addNarratedArticle();
    const res = await openPage(`/embed/article/${article.slug}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors *");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe");
    expect(res.headers.has("x-frame-options")).toBe(false);
    expect(res.headers.has("x-robots-tag")).toBe(false);
    const html = await res.text();
    expect(html).toMatch(/<script type="module" src="\/assets\/player-[A-Z0-9]+\.js"><\/script>/);
    expect(html).not.toMatch(/<script(?! type="module" src="\/assets\/)/);
  });

  it("shows title, publisher, MP3 then Opus, the paragraphs with their recorded starts, and a subscribe link", async () => {
    const { article, key } = await addNarratedArticle({ title: "Tides & <Moons>", publisher: "Sea Post" });
    const html = await (await openPage(`/embed/article/${article.slug}`)).text();
    expect(html).toContain('<h1 data-start="0.100" data-index="0">Tides &amp; &lt;Moons&gt;</h1>');
    expect(html).toContain('<p class="publisher">Sea Post</p>');
    expect(html).toContain(`<source src="https://api.test/v1/audio/${key}.mp3" type="audio/mpeg"><source src="https://api.test/v1/audio/${key}.opus" type="audio/ogg; codecs=opus">`);
    expect(html).toContain('<p data-start="2.500" data-index="1">First paragraph here.</p>');
    expect(html).toContain('<p data-start="6.000" data-index="2">Second &lt;b&gt;paragraph&lt;/b&gt; here.</p>');
    expect(html).toContain('href="https://web.test/listen"');
    for (const speed of ["0.75", "1", "1.25", "1.5", "1.75", "2"]) expect(html).toContain(`<option value="${speed}"`);
    expect(html).toContain('aria-label="Seek"');
    expect(html).toContain('type="application/json+oembed"');
    expect(html).toContain(`<link rel="canonical" href="https://web.test/articles/${article.slug}">`);
  });

  it("without recorded timings, shows the text but invents no starts", async () => {
    const { article } = await addNarratedArticle({}, null);
    const html = await (await openPage(`/embed/article/${article.slug}`)).text();
    expect(html).toContain("<p>First paragraph here.</p>");
    expect(html).not.toContain("data-start");
  });

  it("a publisher_only stub shows no audio and no text, and carries noindex", async () => {
    const { article } = await addNarratedArticle({ visibility: "publisher_only", url: "https://pub.example/a" });
    const res = await openPage(`/embed/article/${article.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain("<audio");
    expect(html).not.toContain("/v1/audio/");
    expect(html).not.toContain("First paragraph");
    expect(html).not.toContain("player-");
  });

  it("an unknown or listener_private article is a framable 404 with noindex and no audio", async () => {
    const priv = await addArticle({ visibility: "listener_private", title: "Secret" });
    for (const slug of ["no-such-article", priv.slug]) {
      const res = await openPage(`/embed/article/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("x-robots-tag")).toBe("noindex");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
      const html = await res.text();
      expect(html).not.toContain("<audio");
      expect(html).not.toContain("Secret");
    }
  });

  it("says the narration is not ready before a render is done", async () => {
    const article = await addArticle();
    const html = await (await openPage(`/embed/article/${article.slug}`)).text();
    expect(html).toContain("not ready yet");
    expect(html).not.toContain("<audio");
  });
});
