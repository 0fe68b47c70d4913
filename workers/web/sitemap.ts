import { desc } from "drizzle-orm";
import { articlePageUrl, webUrl } from "../core/config";
import { articles, database } from "../db/index";
import { shownInFull } from "../kernel/visibility";
import { escapeHtml } from "./page";

/** One sitemap file holds at most 50,000 URLs (sitemaps.org protocol); the newest are listed. */
const MAX_URLS = 50_000;

/** GET {WEB_URL}/sitemap.xml: the home page and every article shown in full (no stubs: they are noindex). */
export async function sitemap(env: Env): Promise<Response> {
  const rows = await database(env)
    .select({ slug: articles.slug, createdAt: articles.createdAt, updatedAt: articles.updatedAt })
    .from(articles)
    .where(shownInFull)
    .orderBy(desc(articles.createdAt))
    .limit(MAX_URLS - 1);
  const entry = (loc: string, lastmod?: Date) => `<url><loc>${escapeHtml(loc)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ""}</url>`;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entry(`${webUrl(env)}/`)}${rows
    .map((r) => entry(articlePageUrl(env, r.slug), r.updatedAt ?? r.createdAt))
    .join("")}</urlset>
`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}

/**
 * GET {WEB_URL}/robots.txt (RFC 9309): pages and audio are open; the JSON API, the listener's own
 * pages and sign-in are not for crawlers. Private feeds are unguessable tokens, never listed anywhere.
 */
export function robots(env: Env): Response {
  const text = `User-agent: *
Allow: /
Disallow: /v1/
Allow: /v1/audio/
Allow: /v1/topic-art
Disallow: /listen
Disallow: /sign-in
Disallow: /oauth/
Disallow: /oembed

Sitemap: ${webUrl(env)}/sitemap.xml
`;
  return new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
