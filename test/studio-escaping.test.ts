import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { jsonBody } from "./support/client";
import { callWith } from "./support/narration";
import { studioBrowser } from "./support/studio";
import { addNarratedArticle } from "./support/web";
import { methodsOf } from "../workers/core/route";
import { issuePublisherKey } from "../workers/kernel/publisher-keys";
import { routes } from "../workers/router";

/**
 * Every studio page a member opens, generated from the route table, while the publisher's name, an
 * article's title and summary, a lexicon entry, a webhook endpoint's address and the stats' top
 * article are markup (issue 46 item 3: test/pages-escaping.test.ts opens the studio signed out, where
 * it only sees the sign-in page). Nothing may reach a page as an element or an attribute; the pages that
 * show a value must show it escaped, so no check passes on a page that shows nothing.
 */

const PUBLISHER = `Gazette "><img src=x onerror=alert('publisher')>`;
const TITLE = `Title </title><script>alert("title")</script>`;
const SUMMARY = `Summary </textarea><svg onload=alert("summary")>`;
const ALIAS = `Win <iframe src=javascript:alert('alias')>`;
const HOOK = `https://hooks.example.com/in?next="><img src=x onerror=alert('hook')>`;

/** What would run, or break out of an element or attribute, had a value above been written as it is. */
const RAW = ["<img src=x", "<script>alert(", "<svg onload", "<iframe src=javascript", `"><img`];

const ESCAPED = {
  publisher: "Gazette &quot;&gt;&lt;img src=x onerror=alert(&#39;publisher&#39;)&gt;",
  title: "Title &lt;/title&gt;&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;",
  alias: "Win &lt;iframe src=javascript:alert(&#39;alias&#39;)&gt;",
};

/** What each page must show, by route path. */
const SHOWN: Record<string, (keyof typeof ESCAPED)[]> = {
  "/studio/:publisher": ["publisher", "title"],
  "/studio/:publisher/articles/:slug": ["title"],
  "/studio/:publisher/lexicon": ["alias"],
  "/studio/:publisher/stats": ["title"],
};

/** The studio's pages of one publisher that a browser opens (the audio is the article's, not a page). */
const PAGES = routes
  .filter((r) => r.path.startsWith("/studio/:publisher") && methodsOf(r).includes("GET") && !r.path.endsWith("/audio") && !r.path.endsWith("/preview"))
  .map((r) => r.path);

describe("hostile publisher, article, lexicon and webhook text on every studio page", () => {
  it("finds the studio's pages in the route table", () => {
    expect(PAGES.length).toBeGreaterThanOrEqual(6);
    for (const path of Object.keys(SHOWN)) expect(PAGES).toContain(path);
  });

  it.each(PAGES)("%s writes them escaped", async (path) => {
    const { article } = await addNarratedArticle({ title: TITLE, summary: SUMMARY, publisher: PUBLISHER });
    const key = { Authorization: `Bearer ${(await issuePublisherKey(env, PUBLISHER)).key}` };
    const base = `/v1/publishers/${encodeURIComponent(PUBLISHER)}`;
    expect((await callWith(null, `${base}/lexicon/entries`, jsonBody("PUT", { entries: [{ grapheme: "Nguyen", alias: ALIAS }] }, key))).status).toBe(200);
    expect((await callWith(null, `${base}/webhooks`, jsonBody("POST", { url: HOOK }, key))).status).toBe(201);
    expect(
      (await callWith(null, `/v1/articles/${article.slug}/beacons`, jsonBody("POST", { event: "start" }, { "User-Agent": "Mozilla/5.0 Firefox/140.0" })))
        .status,
    ).toBe(204);
    const studio = await studioBrowser(PUBLISHER, `escaping-${crypto.randomUUID()}@example.test`, "editor");

    const res = await studio.get(path.replace(":publisher", encodeURIComponent(PUBLISHER)).replace(":slug", encodeURIComponent(article.slug)));
    expect(res.status).toBe(200);
    const markup = await res.text();
    for (const raw of RAW) expect(markup, raw).not.toContain(raw);
    for (const field of SHOWN[path] ?? []) expect(markup, field).toContain(ESCAPED[field]);
  });
});
