import { describe, expect, it } from "vitest";
import { OAUTH_PATHS } from "../workers/oauth/server";
import { OEMBED_PATH } from "../workers/web/oembed";
import { methodsOf } from "../workers/core/route";
import { routes } from "../workers/router";
import { SIGN_IN_PATHS } from "../workers/web/sign-in";
import { signedInListener } from "./support/listen-pages";
import { authorizationRequest, Browser, discover, REDIRECT, register } from "./support/oauth-agent";
import { addNarratedArticle } from "./support/web";
import { testVars } from "./vars";

/**
 * Every page of the web front-end, generated from the route table (its routes that render their failures as pages), opened by
 * a signed-out and a signed-in browser while the archive holds an article whose title, publisher and
 * summary are markup and an OAuth client whose name is: none may reach a page unescaped (issue 35,
 * item 8: a title written raw on the article page went unseen). The pages that list the article
 * must show it escaped, so the check cannot pass on a page that shows nothing.
 */

const TITLE = `Title </title><script>alert("title")</script> & 'more'`;
const PUBLISHER = `Publisher "><img src=x onerror=alert('publisher')> & Sons`;
const SUMMARY = `Summary </textarea></noscript><svg onload=alert("summary")> end`;
const CLIENT = `Client <iframe src=javascript:alert('client')>`;

/** What would run, or break out of an element or attribute, had a value above been written as it is. */
const RAW = ["<script>alert(", "<img src=x", "<svg onload", "</textarea></noscript>", "<iframe src=javascript", "</title><script>"];

/** Each value as HTML text, escaped by hand (& < > " ' as entities). */
const ESCAPED = {
  title: "Title &lt;/title&gt;&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; &amp; &#39;more&#39;",
  publisher: "Publisher &quot;&gt;&lt;img src=x onerror=alert(&#39;publisher&#39;)&gt; &amp; Sons",
  summary: "Summary &lt;/textarea&gt;&lt;/noscript&gt;&lt;svg onload=alert(&quot;summary&quot;)&gt; end",
  client: "Client &lt;iframe src=javascript:alert(&#39;client&#39;)&gt;",
};

/**
 * What the pages that show the article or the client must hold, by page-table key, so that no check
 * passes on a page that shows nothing.
 */
const SHOWN: Record<string, (keyof typeof ESCAPED)[]> = {
  "GET /": ["title", "publisher"],
  "GET /articles/:slug": ["title", "publisher", "summary"],
  "GET /embed/article/:slug": ["title", "publisher"],
  "GET /topics/:slug": ["title", "publisher"],
  "GET /listen/queue": ["title", "publisher"],
  "GET /listen/flo": ["title"],
  [`GET ${OAUTH_PATHS.authorize}`]: ["client"],
};

/** Every page a browser opens: the GET pages (the POST ones are form handlers that redirect or refuse). */
const PAGE_KEYS = routes.filter((r) => r.renderErrors && methodsOf(r).includes("GET")).map((r) => `GET ${r.path}`);

/** The HTML a response carries: the body of an HTML, XML or text page, the `html` member of an oEmbed answer. */
async function markupOf(res: Response): Promise<string> {
  const text = await res.text();
  if (!(res.headers.get("content-type") ?? "").includes("json")) return text;
  const html = (JSON.parse(text) as { html?: unknown }).html;
  return typeof html === "string" ? html : "";
}

// planted: write `${view.title}` for `${escapeHtml(view.title)}` in the article page's <h1> (workers/web/article-page.ts).
describe("hostile article and client text on every page of the web front-end", () => {
  it("finds the pages of the page table", () => {
    // Guards the generator: a table it could not read would pass vacuously.
    expect(PAGE_KEYS.length).toBeGreaterThan(10);
    for (const key of Object.keys(SHOWN)) expect(PAGE_KEYS).toContain(key);
  });

  it.each(PAGE_KEYS)("%s writes a hostile title, publisher, summary and client name escaped", async (key) => {
    const { article } = await addNarratedArticle({ title: TITLE, publisher: PUBLISHER, summary: SUMMARY, vertical: "science" });
    const as = await discover();
    const auth = await authorizationRequest(as, await register(as, REDIRECT, CLIENT), REDIRECT, "articles:read");
    const signedIn = (await signedInListener(`escaping-${crypto.randomUUID()}@example.test`, ["science"])).browser;
    const articleUrl = `${testVars.WEB_URL}/articles/${encodeURIComponent(article.slug)}`;
    const path = key.slice("GET ".length);
    const query: Record<string, string> = {
      [OEMBED_PATH]: `?url=${encodeURIComponent(articleUrl)}`,
      [OAUTH_PATHS.authorize]: auth.url.search,
      [SIGN_IN_PATHS.request]: "?next=%2Flisten",
    };
    // A topic's page is named by the article's topic, every other page's :slug by the article.
    const slug = path.startsWith("/topics/") ? article.vertical : article.slug;
    const url = new URL(`${path.replace(":slug", encodeURIComponent(slug))}${query[path] ?? ""}`, testVars.WEB_URL);
    for (const [who, browser] of [
      ["signed out", new Browser()],
      ["signed in", signedIn],
    ] as const) {
      const res = await browser.get(url);
      expect(res.status, `${who}: ${url.pathname}`).toBeLessThan(500);
      const markup = await markupOf(res);
      for (const raw of RAW) expect(markup, `${who}: ${raw}`).not.toContain(raw);
      if (who === "signed in") for (const field of SHOWN[key] ?? []) expect(markup, field).toContain(ESCAPED[field]);
    }
  });
});
