import { baseUrl, webUrl } from "../core/config";
import { escapeHtml } from "./page";

/** The header every public page shares: home, and the listener's pages. */
export function siteHeader(env: object): string {
  const web = escapeHtml(webUrl(env));
  return `<header class="site-header"><a class="brand" href="${web}/">Narration</a><nav aria-label="Site"><a href="${web}/">Articles</a> · <a href="${web}/listen">Your podcast</a></nav></header>`;
}

/** The footer every public page shares. */
export function siteFooter(env: object): string {
  const api = escapeHtml(baseUrl(env));
  return `<footer class="site-footer"><p>Articles read aloud. <a href="${api}/v1/podcasts/service.xml">Podcast feed</a> · <a href="${api}/openapi.json">API</a></p></footer>`;
}
