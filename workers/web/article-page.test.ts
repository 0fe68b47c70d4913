import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { addNarratedArticle, openPage } from "../../test/support/web";

/** The JSON-LD block of a page, parsed. */
function jsonLd(html: string): Record<string, any> {
  const m = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  expect(m, "a JSON-LD block").not.toBeNull();
  return JSON.parse(m![1]);
}

/** Article pages at {WEB_URL}/articles/{slug} (docs/web.md "Web front-end"). */
describe("article page", () => {
  it("reads without script: the text, the player, card tags, canonical URL; no framing", async () => {
    const { article, key } = await addNarratedArticle({ title: "Quiet Oceans", summary: "Why the sea got quieter.", vertical: "science" });
    const res = await openPage(`/articles/${article.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.has("x-robots-tag")).toBe(false);
    const html = await res.text();
    expect(html).toContain('<p data-start="2.500" data-index="1">First paragraph here.</p>');
    expect(html).toContain(`<audio controls preload="metadata"><source src="https://api.test/v1/audio/${key}.mp3"`);
    expect(html).toContain(`<link rel="canonical" href="https://web.test/articles/${article.slug}">`);
    expect(html).toContain('<meta property="og:title" content="Quiet Oceans">');
    expect(html).toContain('<meta property="og:description" content="Why the sea got quieter.">');
    expect(html).toContain('<meta property="og:image" content="https://api.test/v1/topic-art?prompt=science+stories&amp;w=1200&amp;h=630&amp;title=Science">');
    expect(html).toContain(`<meta property="og:audio" content="https://api.test/v1/audio/${key}.mp3">`);
    expect(html).toContain('<meta name="twitter:card" content="player">');
    expect(html).toContain(`<meta name="twitter:player" content="https://web.test/embed/article/${article.slug}">`);
    expect(html).not.toContain('name="robots"');
    // The copy-paste snippet, escaped inside its textarea.
    expect(html).toContain(`&lt;iframe src=&quot;https://web.test/embed/article/${article.slug}&quot;`);
  });

  it("describes the article and its narration in schema.org JSON-LD", async () => {
    const published = new Date("2026-11-20T08:00:00Z");
    const { article, key } = await addNarratedArticle({ title: "A </script> title", publisher: "Daily Wire Service", publishedAt: published });
    const html = await (await openPage(`/articles/${article.slug}`)).text();
    expect(html).not.toContain("A </script> title");
    const ld = jsonLd(html);
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "NewsArticle",
      headline: "A </script> title",
      url: `https://web.test/articles/${article.slug}`,
      mainEntityOfPage: `https://web.test/articles/${article.slug}`,
      datePublished: published.toISOString(),
      publisher: { "@type": "Organization", name: "Daily Wire Service" },
      audio: {
        "@type": "AudioObject",
        contentUrl: `https://api.test/v1/audio/${key}.mp3`,
        embedUrl: `https://web.test/embed/article/${article.slug}`,
        encodingFormat: "audio/mpeg",
        duration: "PT0M9S",
      },
    });
    expect(ld.image[0]).toMatch(/^https:\/\/api\.test\/v1\/topic-art\?/);
  });

  it("a stub carries noindex and shows neither text nor audio nor JSON-LD", async () => {
    const { article } = await addNarratedArticle({ visibility: "publisher_only", title: "Q&A <stub>", summary: "Hidden summary" });
    const res = await openPage(`/articles/${article.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain("<h1>Q&amp;A &lt;stub&gt;</h1>");
    for (const hidden of ["<audio", "/v1/audio/", "First paragraph", "Hidden summary", "application/ld+json", "og:audio"]) expect(html).not.toContain(hidden);
  });

  it("an unknown or someone's listener_private article is a 404 with noindex", async () => {
    const priv = await addArticle({ visibility: "listener_private", title: "Mine only" });
    for (const slug of ["nope", priv.slug, "%E0%A4%A"]) {
      const res = await openPage(`/articles/${slug}`);
      expect(res.status, slug).toBe(404);
      const html = await res.text();
      expect(html).not.toContain("Mine only");
    }
  });
});
