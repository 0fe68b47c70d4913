import { articlePageUrl, baseUrl, webUrl } from "../core/config";
import { serviceFeedPath } from "../kernel/feed-paths";
import { trendingArticles } from "../kernel/trending";
import { PODCAST_VERTICALS, verticalLabel as label } from "../kernel/verticals";
import { escapeHtml } from "./page";
import { siteFooter, siteHeader } from "./site-chrome";
import { PUBLIC_CACHE, sitePage } from "./site-page";

const TRENDING_COUNT = 10;

/** Each podcast vertical with its public feed (docs/feeds.md "Podcast feeds"). */
function verticalsSection(env: object): string {
  const items = PODCAST_VERTICALS.filter((v) => v !== "trending")
    .map((v) => `<li><span class="vertical-name">${escapeHtml(label(v))}</span> <a href="${escapeHtml(baseUrl(env) + serviceFeedPath(v))}">Podcast feed<span class="visually-hidden">: ${escapeHtml(label(v))}</span></a></li>`)
    .join("");
  return `<section aria-labelledby="verticals"><h2 id="verticals">Topics</h2><p>Add a topic's feed to any podcast app.</p><ul class="verticals">${items}</ul></section>`;
}

/**
 * GET {WEB_URL}/: search as you type (client/home.ts over GET /v1/stories/search), what is trending
 * now, and the topics with their podcast feeds; every article links to its page.
 */
export async function homePage(env: Env): Promise<Response> {
  const trending = await trendingArticles(env, { limit: TRENDING_COUNT, excludeStubs: true, audioReadyOnly: true });
  const list = trending.length
    ? `<ol class="articles">${trending
        .map(
          (a) =>
            `<li><a href="${escapeHtml(articlePageUrl(env, a.slug))}">${escapeHtml(a.title)}</a> <span class="muted">${escapeHtml(a.publisher)}${a.listenSeconds ? ` · ${Math.max(1, Math.round(a.listenSeconds / 60))} min` : ""}</span></li>`,
        )
        .join("")}</ol>`
    : `<p>Nothing is trending yet.</p>`;
  const search = `<section aria-labelledby="search-heading"><h2 id="search-heading">Search</h2>
<form class="search" role="search" data-search data-api="${escapeHtml(baseUrl(env))}" hidden>
<label for="q">Search the archive</label> <input type="search" id="q" name="q" autocomplete="off" maxlength="200">
</form><noscript><p>Search needs JavaScript; the topics' feeds below work without it.</p></noscript>
<p class="visually-hidden" role="status" data-search-status></p><ol class="articles" data-search-results></ol></section>`;
  return sitePage(env, {
    title: "Narration: articles, read aloud",
    head: `<meta name="description" content="Articles read aloud: search the archive, listen in the browser, or follow a topic in your podcast app.">`,
    body: `${siteHeader(env)}<main><h1>Articles, read aloud</h1><p>Listen in the browser, or follow a topic in any podcast app.</p>
${search}<section aria-labelledby="trending"><h2 id="trending">Trending now</h2>${list}<p><a href="${escapeHtml(baseUrl(env) + serviceFeedPath("trending"))}">Trending podcast feed</a></p></section>
${verticalsSection(env)}</main>${siteFooter(env)}`,
    scripts: ["home.js"],
    canonical: `${webUrl(env)}/`,
    headers: PUBLIC_CACHE,
  });
}
