import { desc } from "drizzle-orm";
import { baseUrl } from "../core/config";
import { articles, database } from "../db";
import { listingColumns } from "../kernel/article-columns";
import { serviceFeedPath, topicPageUrl } from "../kernel/public-urls";
import { listingFilter, trendingArticles } from "../kernel/trending";
import { canonicalPodcastVertical, canonicalVertical, verticalLabel } from "../kernel/verticals";
import { escapeHtml } from "./page";
import { podcastAppLinks } from "./podcast-apps";
import { articleListItem, siteFooter, siteHeader, type ListedArticle } from "./site-chrome";
import { PUBLIC_CACHE, sitePage } from "./site-page";

/**
 * {WEB_URL}/topics/{slug}: one listener vertical (docs/web.md "Web front-end"): what is trending in
 * it, every public article of it newest first, a page at a time, and its podcast feed with one-tap
 * buttons for the podcast apps. The home page links every topic here, so each public article is
 * reachable from the home page without search.
 */

/** Articles per page of the newest list. */
export const TOPIC_PAGE_SIZE = 10;
const TRENDING_COUNT = 5;
/** Past this page the list is empty anyway; a bound keeps a crawler's page=10^9 from costing an OFFSET scan. */
const MAX_TOPIC_PAGE = 1000;

/** The public articles of `vertical` shown in full (no stubs, as in the sitemap), newest first: one page, and whether another follows. */
async function newestOf(env: Env, vertical: string, page: number): Promise<{ items: ListedArticle[]; more: boolean }> {
  const rows = await database(env)
    .select(listingColumns)
    .from(articles)
    .where(listingFilter({ vertical, excludeStubs: true }))
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .limit(TOPIC_PAGE_SIZE + 1)
    .offset((page - 1) * TOPIC_PAGE_SIZE);
  return { items: rows.slice(0, TOPIC_PAGE_SIZE), more: rows.length > TOPIC_PAGE_SIZE };
}

const list = (env: object, items: ListedArticle[]) => `<ol class="articles">${items.map((a) => articleListItem(env, a)).join("")}</ol>`;

/** The podcast feed of `podcast` (a podcast vertical) as one-tap buttons and an address to copy. */
function feedButtons(env: object, podcast: string, label: string): string {
  const feed = `${baseUrl(env)}${serviceFeedPath(podcast)}`;
  return `<p>Follow ${escapeHtml(label)} in your podcast app with one tap:</p>${podcastAppLinks(feed, `${label} podcast`, "subscribe")}
<p><label for="feed-url">Or copy the feed's address into any podcast app</label></p>
<input class="feed-url" id="feed-url" type="text" readonly value="${escapeHtml(feed)}">`;
}

/** The topic's feed, or, for a topic without a feed of its own, the way to the listener's private feed. */
function subscribeSection(env: object, slug: string, label: string): string {
  const podcast = canonicalPodcastVertical(slug);
  const feed = podcast ? feedButtons(env, podcast, label) : `<p>${escapeHtml(label)} has no podcast feed of its own yet.</p>`;
  return `<section aria-labelledby="subscribe"><h2 id="subscribe">Subscribe</h2>${feed}
<p><a href="/listen">Get a private feed of the topics you choose</a>, with a queue and an optional daily digest.</p></section>`;
}

function pager(env: object, slug: string, page: number, more: boolean): string {
  const at = (n: number) => escapeHtml(n === 1 ? topicPageUrl(env, slug) : `${topicPageUrl(env, slug)}?page=${n}`);
  const links = [
    page > 1 ? `<a rel="prev" href="${at(page - 1)}">Newer articles</a>` : "",
    more ? `<a rel="next" href="${at(page + 1)}">Older articles</a>` : "",
  ].filter(Boolean);
  return links.length ? `<nav class="pager" aria-label="Pages of ${escapeHtml(verticalLabel(slug))} articles">${links.join(" ")}</nav>` : "";
}

function notFound(env: object): Response {
  return sitePage(env, {
    title: "Topic not found · Narration",
    body: `${siteHeader()}<main><h1>Topic not found</h1><p><a href="/#topics">See every topic</a></p></main>${siteFooter(env)}`,
    noindex: true,
    status: 404,
  });
}

/** The page number of `?page=`: 1 when absent, else a whole number from 1 to MAX_TOPIC_PAGE, or null. */
function pageNumber(raw: string | null): number | null {
  if (raw === null) return 1;
  if (!/^[1-9]\d{0,3}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= MAX_TOPIC_PAGE ? n : null;
}

/**
 * GET /topics/{slug}?page=N (`rawPage` as the query gives it). An alias of a vertical (parenting,
 * markets...) answers 301 to the canonical page, so each topic has one address; an unknown slug or a
 * page number that is not one is a 404.
 */
export async function topicPage(env: Env, slug: string, rawPage: string | null = null): Promise<Response> {
  const canonical = canonicalVertical(slug);
  const page = pageNumber(rawPage);
  if (!canonical || page === null) return notFound(env);
  if (canonical !== slug) return Response.redirect(topicPageUrl(env, canonical), 301);
  const label = verticalLabel(canonical);
  const [newest, trending] = await Promise.all([
    newestOf(env, canonical, page),
    page === 1 ? trendingArticles(env, { limit: TRENDING_COUNT, vertical: canonical, excludeStubs: true, audioReadyOnly: true }) : [],
  ]);
  const trendingSection = trending.length
    ? `<section aria-labelledby="trending"><h2 id="trending">Trending in ${escapeHtml(label)}</h2>${list(env, trending)}</section>`
    : "";
  const heading = page === 1 ? "Newest" : `Newest, page ${page}`;
  const newestSection = `<section aria-labelledby="newest"><h2 id="newest">${heading}</h2>${
    newest.items.length ? list(env, newest.items) : `<p>No ${page === 1 ? "" : "more "}articles in ${escapeHtml(label)} yet.</p>`
  }${pager(env, canonical, page, newest.more)}</section>`;
  return sitePage(env, {
    title: `${label}${page === 1 ? "" : `, page ${page}`} · Narration`,
    head: `<meta name="description" content="${escapeHtml(`${label}: articles read aloud, newest and trending, and a podcast feed to follow.`)}">`,
    body: `${siteHeader()}<main><p class="muted"><a href="/#topics">Topics</a></p><h1>${escapeHtml(label)}</h1>
${page === 1 ? subscribeSection(env, canonical, label) : ""}${trendingSection}${newestSection}</main>${siteFooter(env)}`,
    canonical: page === 1 ? topicPageUrl(env, canonical) : `${topicPageUrl(env, canonical)}?page=${page}`,
    headers: PUBLIC_CACHE,
  });
}
