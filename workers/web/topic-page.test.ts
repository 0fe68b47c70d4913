import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { addNarratedArticle } from "../../test/support/web";
import { TOPIC_PAGE_SIZE, topicPage } from "./topic-page";

/** The topic pages at {WEB_URL}/topics/{slug} (docs/web.md "Web front-end"). */

/** The article titles a page lists under the heading with id `section`, in order. */
function titlesIn(html: string, section: string): string[] {
  const start = html.indexOf(`<h2 id="${section}">`);
  if (start < 0) return [];
  const end = html.indexOf("</section>", start);
  return [...html.slice(start, end).matchAll(/<li><a href="https:\/\/web\.test\/articles\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
}

/** `count` public science articles, the newest first in the returned titles. */
async function scienceArticles(count: number): Promise<string[]> {
  const day = Date.UTC(2026, 10, 1);
  for (let i = 0; i < count; i++) await addArticle({ title: `Science ${i}`, vertical: "science", createdAt: new Date(day + i * 60_000) });
  return Array.from({ length: count }, (_, i) => `Science ${count - 1 - i}`);
}

describe("topic pages", () => {
  it("list every public article of the topic newest first, a page at a time, with links between the pages", async () => {
    const newest = await scienceArticles(TOPIC_PAGE_SIZE + 3);
    await addArticle({ title: "Stub", vertical: "science", visibility: "publisher_only" });
    await addArticle({ title: "Forwarded", vertical: "science", visibility: "listener_private" });
    await addArticle({ title: "Other topic", vertical: "sports" });

    const first = await topicPage(env, "science");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    expect(first.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await first.text();
    expect(html).toContain("<h1>Science</h1>");
    expect(titlesIn(html, "newest")).toEqual(newest.slice(0, TOPIC_PAGE_SIZE));
    expect(html).toContain('<a rel="next" href="https://web.test/topics/science?page=2">Older articles</a>');
    expect(html).not.toContain('rel="prev"');
    expect(html).toContain('<link rel="canonical" href="https://web.test/topics/science">');

    const second = await (await topicPage(env, "science", "2")).text();
    expect(titlesIn(second, "newest")).toEqual(newest.slice(TOPIC_PAGE_SIZE));
    expect(second).toContain('<a rel="prev" href="https://web.test/topics/science">Newer articles</a>');
    expect(second).not.toContain('rel="next"');
    for (const page of [html, second]) for (const hidden of ["Stub", "Forwarded", "Other topic"]) expect(page).not.toContain(hidden);
    expect(await (await topicPage(env, "science", "3")).text()).toContain("No more articles in Science yet.");
  });

  it("show what is trending in the topic among the narrated articles, on the first page only", async () => {
    await addArticle({ title: "Not narrated", vertical: "health" });
    const { article } = await addNarratedArticle({ title: "Narrated <health>", vertical: "health" });
    await addNarratedArticle({ title: "Narrated elsewhere", vertical: "tech" });
    const html = await (await topicPage(env, "health")).text();
    expect(titlesIn(html, "trending")).toEqual(["Narrated &lt;health&gt;"]);
    expect(html).toContain(`href="https://web.test/articles/${article.slug}"`);
    expect(titlesIn(html, "newest").sort()).toEqual(["Narrated &lt;health&gt;", "Not narrated"]);
    expect(await (await topicPage(env, "health", "2")).text()).not.toContain('id="trending"');
  });

  it("offer the topic's podcast feed as one-tap app buttons and an address to copy", async () => {
    const html = await (await topicPage(env, "young_moms")).text();
    const feed = "https://api.test/v1/podcasts/service-young_moms.xml";
    expect(html).toContain(`<ul class="apps" aria-labelledby="subscribe">`);
    for (const href of [
      "podcast://api.test/v1/podcasts/service-young_moms.xml",
      `overcast://x-callback-url/add?url=${encodeURIComponent(feed)}`,
      "pktc://subscribe/api.test/v1/podcasts/service-young_moms.xml",
      "antennapod-subscribe://api.test/v1/podcasts/service-young_moms.xml",
      "podcastaddict://api.test/v1/podcasts/service-young_moms.xml",
    ]) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toContain(`id="feed-url" type="text" readonly value="${feed}"`);
    expect(html).toContain('<span class="visually-hidden">: Young moms podcast</span>');
  });

  it("send a topic without a feed of its own to the private feed instead", async () => {
    const html = await (await topicPage(env, "sports")).text();
    expect(html).toContain("Sports has no podcast feed of its own yet.");
    expect(html).toContain('<a href="/listen">Get a private feed of the topics you choose</a>');
    expect(html).not.toContain('class="apps"');
  });

  it("move an alias to the topic's one address, and answer an unknown topic or page with a 404 kept out of indexes", async () => {
    const alias = await topicPage(env, "parenting");
    expect(alias.status).toBe(301);
    expect(alias.headers.get("location")).toBe("https://web.test/topics/young_moms");
    const unknown = await topicPage(env, "astrology");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-robots-tag")).toBe("noindex");
    expect(await unknown.text()).toContain("Topic not found");
    for (const page of ["0", "-1", "1.5", "x", "1001", "99999999999"]) expect((await topicPage(env, "science", page)).status, page).toBe(404);
    expect((await topicPage(env, "science", "1000")).status).toBe(200);
  });
});
