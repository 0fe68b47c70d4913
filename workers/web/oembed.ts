import { ApiError, errorResponse } from "../core/errors";
import { articlePageUrl, webUrl } from "../core/config";
import { articleView, type ArticleView } from "./article-view";
import { escapeHtml } from "./page";
import { articleArtUrl, EMBED_HEIGHT, embedSnippet } from "./player-markup";

/** The oEmbed endpoint on the web front-end (https://oembed.com). */
export const OEMBED_PATH = "/oembed";

/** The player's width when the consumer sets no maximum; it also fits any narrower maximum. */
const DEFAULT_WIDTH = 600;
const MIN_HEIGHT = 200;

/** The <link> that lets a CMS find the player from the article's URL (oEmbed §4, discovery). */
export function oembedDiscovery(env: object, view: Pick<ArticleView, "slug" | "title">): string {
  const href = `${webUrl(env)}${OEMBED_PATH}?${new URLSearchParams({ url: articlePageUrl(env, view.slug), format: "json" })}`;
  return `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(href)}" title="${escapeHtml(view.title)}">`;
}

/** The slug of an article page or embed URL on this web front-end, or null for any other URL. */
function slugOf(env: object, raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.origin !== new URL(webUrl(env)).origin) return null;
  const m = /^\/(?:articles|embed\/article)\/([^/]+)$/.exec(url.pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** A positive whole number of pixels from a query parameter, undefined when absent. */
function pixels(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^[1-9][0-9]{0,4}$/.test(raw)) throw new ApiError("bad_request", `${name} must be a whole number of pixels`);
  return Number(raw);
}

/**
 * GET {WEB_URL}/oembed?url=&format=json: the player of a public article as a "rich" oEmbed response
 * (oEmbed §2.3). Only JSON is offered: format=xml is 501 (§2.3.4); a URL that is not one of our
 * public articles with audio is 404, so no stub or private article is embedded.
 */
export async function oembed(request: Request, env: Env): Promise<Response> {
  try {
    const query = new URL(request.url).searchParams;
    const url = query.get("url");
    if (!url) throw new ApiError("bad_request", "url is required");
    const format = query.get("format") ?? "json";
    if (format !== "json") throw new ApiError("not_implemented", "only format=json is offered");
    const maxWidth = pixels(query, "maxwidth");
    const maxHeight = pixels(query, "maxheight");
    const slug = slugOf(env, url);
    const view = slug === null ? null : await articleView(env, slug);
    if (!view || view.stub || !view.audio) throw new ApiError("not_found", "no embeddable article at that URL");
    const width = Math.min(maxWidth ?? DEFAULT_WIDTH, DEFAULT_WIDTH);
    const height = Math.max(Math.min(maxHeight ?? EMBED_HEIGHT, EMBED_HEIGHT), MIN_HEIGHT);
    return Response.json(
      {
        version: "1.0",
        type: "rich",
        title: view.title,
        author_name: view.publisher,
        provider_name: "Narration",
        provider_url: `${webUrl(env)}/`,
        cache_age: 3600,
        thumbnail_url: articleArtUrl(env, view, 600, 600),
        thumbnail_width: 600,
        thumbnail_height: 600,
        html: embedSnippet(env, view, width, height),
        width,
        height,
      },
      { headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*" } },
    );
  } catch (err) {
    if (err instanceof ApiError) return errorResponse(err, env);
    throw err;
  }
}
