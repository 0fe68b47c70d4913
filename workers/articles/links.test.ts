import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { addLinkInDevelopment, DEVELOPMENT, sitePage } from "../../test/support/links-site";
import { subscribeVia } from "../../test/support/listeners";
import { fetchLinkArticle, NoArticle } from "./link-page";
import { LINKS_PER_DAY } from "./links";
import { FetchRefused } from "../kernel/guarded-fetch";

/**
 * Any article by its link (issue 45), against a real web site on loopback (scripts/links-site.mjs):
 * the article out of the page, every refusal with its reason, and the attacks on the fetcher.
 */

afterEach(() => vi.restoreAllMocks());

const dev = { ...env, ...DEVELOPMENT };

type Detail = { detail: { loc: string[]; msg: string; type: string }[] };

async function privateCount(): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM articles WHERE visibility = 'listener_private'").first<{ n: number }>();
  return row?.n ?? 0;
}

describe("the article, not the page", () => {
  it("takes a news article out of its navigation, advert and comments, with its metadata", async () => {
    const article = await fetchLinkArticle(dev, new URL(sitePage("/news/harbour-ferries-wind")));
    expect(article.title).toBe("Harbour ferries return to wind power");
    expect(article.byline).toBe("Mara Lindqvist");
    expect(article.siteName).toBe("The Coastal Courier");
    expect(article.publishedTime).toBe("2026-11-20T07:30:00Z");
    expect(article.url).toBe(sitePage("/news/harbour-ferries-wind"));
    expect(article.lang).toBe("en");
    const paragraphs = article.text.split("\n\n");
    expect(paragraphs.length).toBeGreaterThanOrEqual(5);
    expect(paragraphs.some((p) => p.startsWith("For the first time in ninety years"))).toBe(true);
    for (const chrome of ["ADVERTISEMENT", "Comments (3)", "Will they run on Sundays", "Privacy", "Subscribe"]) expect(article.text).not.toContain(chrome);
  });

  it("reads a blog post in German with its language", async () => {
    const article = await fetchLinkArticle(dev, new URL(sitePage("/blog/briefe")));
    expect(article.title).toBe("Warum ich wieder Briefe schreibe");
    expect(article.lang).toBe("de");
    expect(article.text).toContain("Füller");
    expect(article.text).not.toContain("Neueste Beiträge");
  });

  it("honours the charset the page's Content-Type names", async () => {
    const article = await fetchLinkArticle(dev, new URL(sitePage("/latin1")));
    expect(article.text).toContain("“café” crème");
  });

  it.each([
    ["a home page", "/", NoArticle, /does not look like an article/],
    ["a page that opts out by header", "/optout", NoArticle, /X-Robots-Tag: noai/],
    ["a page that opts out by meta", "/optout-meta", NoArticle, /robots meta: noai/],
    ["a PDF", "/report.pdf", FetchRefused, /application\/pdf, not text\/html/],
    ["a 20 MB page", "/huge", FetchRefused, /larger than 5242880 bytes/],
    ["a redirect to a private address", "/to-private", FetchRefused, /10\.0\.0\.7 is not a public host/],
    ["six redirects", "/loop/6", FetchRefused, /redirects more than 5 times/],
    ["a missing page", "/nowhere", FetchRefused, /answered 404/],
  ])("refuses %s with the reason", async (_, path, kind, reason) => {
    const err = await fetchLinkArticle(dev, new URL(sitePage(path))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(kind);
    expect((err as Error).message).toMatch(reason);
  });

  it("follows five redirects, each checked", async () => {
    const article = await fetchLinkArticle(dev, new URL(sitePage("/loop/5")));
    expect(article.title).toBe("Harbour ferries return to wind power");
  });

  it("gives up on a page that never finishes after 10 s", async () => {
    const started = Date.now();
    const err = await fetchLinkArticle(dev, new URL(sitePage("/hang"))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchRefused);
    expect((err as FetchRefused).reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe("POST /v1/listeners/{token}/links", () => {
  it("stores the article as the listener's private one, queues its narration, and gives the same slug for the same link", async () => {
    const { token } = await subscribeVia("links-owner@example.com");
    const res = await addLinkInDevelopment(token, sitePage("/news/harbour-ferries-wind#comments"));
    expect(res.status).toBe(202);
    const { slug, job_id } = await res.json<{ slug: string; job_id: string }>();
    const row = await env.DB.prepare(
      "SELECT a.visibility, a.url, a.publisher, a.title, a.published_at, j.priority, j.state FROM articles a JOIN render_jobs j ON j.article_id = a.id WHERE a.slug = ? AND j.id = ?",
    )
      .bind(slug, job_id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      visibility: "listener_private",
      url: sitePage("/news/harbour-ferries-wind"),
      publisher: "The Coastal Courier",
      title: "Harbour ferries return to wind power",
      published_at: Date.parse("2026-11-20T07:30:00Z"),
      priority: "high",
      state: "queued",
    });
    const again = await addLinkInDevelopment(token, sitePage("/news/harbour-ferries-wind"));
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ slug, job_id });
    // Reached by another address of the same page, its canonical one names the same article.
    const viaRedirect = await addLinkInDevelopment(token, sitePage("/loop/2"));
    expect((await viaRedirect.json<{ slug: string }>()).slug).toBe(slug);
  });

  it("is 422 naming why for a page without an article, and stores nothing", async () => {
    const { token } = await subscribeVia("links-home@example.com");
    const before = await privateCount();
    const res = await addLinkInDevelopment(token, sitePage("/"));
    expect(res.status).toBe(422);
    const body = await res.json<Detail>();
    expect(body.detail[0]).toMatchObject({ loc: ["body", "url"], type: "no_article" });
    expect(body.detail[0].msg).toMatch(/does not look like an article/);
    expect(await privateCount()).toBe(before);
  });

  it("says when the day's links are spent", async () => {
    const { token } = await subscribeVia("links-quota@example.com");
    const { id } = (await env.DB.prepare("SELECT id FROM listeners WHERE email = ?").bind("links-quota@example.com").first<{ id: number }>())!;
    const rows = Array.from({ length: LINKS_PER_DAY }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO articles (slug, title, publisher, vertical, summary, body_text, url, visibility, owner_listener_id, content_hash) VALUES (?, 't', 'p', 'news', '', 'b', ?, 'listener_private', ?, 'h')",
      ).bind(`quota-${i}`, `https://site.example.net/${i}`, id),
    );
    await env.DB.batch(rows);
    const res = await addLinkInDevelopment(token, sitePage("/blog/briefe"));
    expect(res.status).toBe(422);
    expect((await res.json<Detail>()).detail[0]).toMatchObject({ type: "quota" });
  });

  describe("attacks on the fetcher (outside development, as deployed)", () => {
    it.each([
      ["this machine by address", (site: string) => `${site}/news/harbour-ferries-wind`],
      ["this machine by name", () => "http://localhost/admin"],
      ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data/"],
      ["a private network", () => "http://10.0.0.7/"],
      ["an IPv6 loopback", () => "http://[::1]/"],
      ["an IPv4-mapped IPv6 loopback", () => "http://[::ffff:127.0.0.1]/"],
      ["a name public DNS never answers", () => "https://router.internal/"],
    ])("refuses %s before anything is sent", async (_, target) => {
      const { token } = await subscribeVia(`links-attack-${Math.random().toString(36).slice(2)}@example.com`);
      const fetched: string[] = [];
      const real = globalThis.fetch;
      vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
        fetched.push(String(input instanceof Request ? input.url : input));
        return real(input, init);
      });
      const before = await privateCount();
      const res = await call(`/v1/listeners/${token}/links`, jsonBody("POST", { url: target(sitePage("")) }));
      vi.restoreAllMocks();
      expect(res.status).toBe(422);
      expect((await res.json<Detail>()).detail[0]).toMatchObject({ loc: ["body", "url"], type: "fetch_address" });
      expect(fetched.filter((u) => !u.startsWith("https://api.test") && !u.startsWith("https://web.test"))).toEqual([]);
      expect(await privateCount()).toBe(before);
    });

    it("refuses schemes other than http(s) at validation", async () => {
      const { token } = await subscribeVia("links-scheme@example.com");
      for (const url of ["file:///etc/passwd", "gopher://example.net/", "javascript:alert(1)"]) {
        const res = await call(`/v1/listeners/${token}/links`, jsonBody("POST", { url }));
        expect(res.status, url).toBe(422);
      }
    });

    it("is 404 for an unknown listener token", async () => {
      const res = await call("/v1/listeners/not-a-token/links", jsonBody("POST", { url: "https://example.net/a" }));
      expect(res.status).toBe(404);
    });
  });
});
