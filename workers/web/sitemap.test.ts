import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { openPage } from "../../test/support/web";

/** /sitemap.xml and /robots.txt on the web front-end (docs/web.md "Web front-end"). */
describe("sitemap and robots.txt", () => {
  it("lists the home page and every public article, never a stub", async () => {
    const shown = await addArticle({ updatedAt: new Date("2026-11-21T10:00:00Z") });
    const stub = await addArticle({ visibility: "publisher_only" });
    const priv = await addArticle({ visibility: "listener_private" });
    const res = await openPage("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/xml");
    const xml = await res.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain("<url><loc>https://web.test/</loc></url>");
    expect(xml).toContain(`<url><loc>https://web.test/articles/${shown.slug}</loc><lastmod>2026-11-21T10:00:00.000Z</lastmod></url>`);
    expect(xml).not.toContain(stub.slug);
    expect(xml).not.toContain(priv.slug);
  });

  it("robots.txt opens the pages and audio, closes the API and personal pages, and names the sitemap", async () => {
    const res = await openPage("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    for (const line of ["User-agent: *", "Allow: /", "Disallow: /v1/", "Allow: /v1/audio/", "Disallow: /listen", "Sitemap: https://web.test/sitemap.xml"]) {
      expect(text.split("\n")).toContain(line);
    }
  });
});
