import { baseUrl, webUrl } from "../core/config";
import { serviceFeedPath, topicPageUrl } from "../kernel/public-urls";
import { trendingArticles } from "../kernel/trending";
import { LISTENER_VERTICALS } from "../kernel/verticals";
import { escapeHtml } from "./page";
import { podcastAppLinks } from "./podcast-apps";
import { articleListItem, siteFooter, siteHeader } from "./site-chrome";
import { PUBLIC_CACHE, sitePage } from "./site-page";

const TRENDING_COUNT = 10;

/** Every topic, each linking to its page (newest, trending, its feed): every public article is a click or two from here. */
function topicsSection(env: object): string {
  const items = LISTENER_VERTICALS.map(
    (v) => `<li><a class="vertical-name" href="${escapeHtml(topicPageUrl(env, v.slug))}">${escapeHtml(v.label)}</a></li>`,
  ).join("");
  return `<section aria-labelledby="topics"><h2 id="topics">Topics</h2><p>Every article by topic, and each topic's podcast feed.</p><ul class="verticals">${items}</ul></section>`;
}

/** The all-trending feed as one-tap buttons for the podcast apps. */
function trendingFeed(env: object): string {
  const feed = `${baseUrl(env)}${serviceFeedPath("trending")}`;
  return `<h3 id="trending-feed">Follow what is trending in your podcast app</h3>${podcastAppLinks(feed, "the trending podcast", "trending-feed")}`;
}

/**
 * GET {WEB_URL}/: search as you type (client/home.ts over GET /v1/stories/search), what is trending
 * now with the trending feed's subscribe buttons, and every topic's page; every article links to its page.
 */
export async function homePage(env: Env): Promise<Response> {
  const trending = await trendingArticles(env, { limit: TRENDING_COUNT, excludeStubs: true, audioReadyOnly: true });
  const list = trending.length ? `<ol class="articles">${trending.map((a) => articleListItem(env, a)).join("")}</ol>` : `<p>Nothing is trending yet.</p>`;
  const search = `<section aria-labelledby="search-heading"><h2 id="search-heading">Search</h2>
<form class="search" role="search" data-search data-api="${escapeHtml(baseUrl(env))}" hidden>
<label for="q">Search the archive</label> <input type="search" id="q" name="q" autocomplete="off" maxlength="200">
</form><noscript><p>Search needs JavaScript; the topics below list every article without it.</p></noscript>
<p class="visually-hidden" role="status" data-search-status></p><ol class="articles" data-search-results></ol></section>`;
  return sitePage(env, {
    title: "Narration: articles, read aloud",
    head: `<meta name="description" content="Articles read aloud: search the archive, listen in the browser, or follow a topic in your podcast app.">`,
    body: `${siteHeader()}<main><h1>Articles, read aloud</h1><p>Listen in the browser, or follow a topic in any podcast app.</p>
${search}<section aria-labelledby="trending"><h2 id="trending">Trending now</h2>${list}${trendingFeed(env)}</section>
${topicsSection(env)}</main>${siteFooter(env)}`,
    scripts: ["home.js"],
    canonical: `${webUrl(env)}/`,
    headers: PUBLIC_CACHE,
  });
}
