import { articlePageUrl, baseUrl } from "../core/config";
import { escapeHtml } from "../core/text";

/**
 * The header the public pages share (home, topics, articles, sign-in and consent). Its links are
 * paths: every page that shows it is served from WEB_URL.
 */
export function siteHeader(): string {
  return `<header class="site-header"><a class="brand" href="/">Narration</a><nav aria-label="Site"><a href="/">Articles</a> · <a href="/listen">Your podcast</a></nav></header>`;
}

/** The footer every public page shares. */
export function siteFooter(env: object): string {
  const api = escapeHtml(baseUrl(env));
  return `<footer class="site-footer"><p>Articles read aloud. <a href="${api}/v1/podcasts/service.xml">Podcast feed</a> · <a href="${api}/openapi.json">API</a></p></footer>`;
}

/** What an article list shows of an article. */
export interface ListedArticle {
  slug: string;
  title: string;
  publisher: string;
  listenSeconds: number | null;
}

/** An article as an item of the public pages' lists: its title linking to its page, its publisher and length. */
export function articleListItem(env: object, a: ListedArticle): string {
  const minutes = a.listenSeconds ? ` · ${Math.max(1, Math.round(a.listenSeconds / 60))} min` : "";
  return `<li><a href="${escapeHtml(articlePageUrl(env, a.slug))}">${escapeHtml(a.title)}</a> <span class="muted">${escapeHtml(a.publisher)}${minutes}</span></li>`;
}
