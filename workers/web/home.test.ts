import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { addNarratedArticle, openPage } from "../../test/support/web";

/** The home page at {WEB_URL}/ (docs/web.md "Web front-end"). */
describe("home page", () => {
  it("lists trending public articles with links to their pages, the trending feed's subscribe buttons and every topic's page", async () => {
    const { article } = await addNarratedArticle({ title: "Hot <news>" });
    const stub = await addNarratedArticle({ visibility: "publisher_only", title: "Stub title" });
    await addArticle({ visibility: "listener_private", title: "Private title" });
    const res = await openPage("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain(`<a href="https://web.test/articles/${article.slug}">Hot &lt;news&gt;</a>`);
    expect(html).not.toContain(stub.article.slug);
    expect(html).not.toContain("Private title");
    // Every topic's page, the three without a feed of their own too, and no raw feed links.
    for (const slug of ["tech", "finance", "science", "media", "sports", "culture", "health", "young_moms", "news"]) {
      expect(html).toContain(`href="https://web.test/topics/${slug}"`);
    }
    expect(html).not.toContain('href="https://api.test/v1/podcasts/service-');
    expect(html).toContain(`href="overcast://x-callback-url/add?url=${encodeURIComponent("https://api.test/v1/podcasts/service-trending.xml")}"`);
    expect(html).toContain('href="podcastaddict://api.test/v1/podcasts/service-trending.xml"');
    expect(html).toContain('href="/listen"');
    expect(html).toMatch(/<script type="module" src="\/assets\/home-[A-Z0-9]+\.js"><\/script>/);
    expect(html).toContain('data-api="https://api.test"');
  });
});
