import { textDirection } from "../kernel/language";
import { baseUrl } from "../core/config";
import { escapeHtml } from "../core/text";
import built from "./client-assets.json";

/** A file built from workers/web/client (scripts/build-web.mjs), by its entry name, e.g. "player.js". */
export type AssetName = keyof typeof built.paths;

/** The served path of a built client file (content-hashed, cached immutable; workers/web/static-files.ts). */
export function assetPath(name: AssetName): string {
  return built.paths[name];
}

/** Pages the same for everyone may sit in shared caches for a minute, as GET /v1/articles/{slug} does. */
export const PUBLIC_CACHE = { "Cache-Control": "public, max-age=60" } as const;

/** What a public page of the web front-end holds; every string field is plain text except `body` and `head`. */
export interface SitePage {
  title: string;
  /** HTML the caller has escaped. */
  body: string;
  /** Extra HTML for <head> (meta tags, JSON-LD), escaped by the caller. */
  head?: string;
  /** Built scripts to load as modules, e.g. ["player.js"]. */
  scripts?: AssetName[];
  /** Built style sheets; "site.css" when omitted. */
  styles?: AssetName[];
  /** Keeps the page out of search indexes (stubs, unknown articles, personal pages). */
  noindex?: boolean;
  /** Any site may frame the page (the embeddable player); otherwise no site may. */
  framable?: boolean;
  /** The page's canonical URL (absolute). */
  canonical?: string;
  /** The page's language (BCP 47): <html lang> and, for a right-to-left script, dir="rtl"; en when omitted. */
  language?: string;
  /** A class on <body>, for layouts such as the embed's. */
  bodyClass?: string;
  status?: number;
  /** Added to, and overriding, the defaults (e.g. Cache-Control, Set-Cookie). */
  headers?: HeadersInit;
}

/**
 * The Content-Security-Policy of the public pages. Scripts and styles come from this origin only
 * (the built assets: no inline script, so an injected tag cannot run); audio and art come from the
 * API's origin, which may differ from the web's; fetches go to the API (search as you type). The
 * embed is framed by any site (frame-ancestors *, and no X-Frame-Options, which cannot say "any");
 * every other page by none, against clickjacking (RFC 6819 §4.4.1.9).
 */
function contentSecurityPolicy(env: object, framable: boolean): string {
  const api = new URL(baseUrl(env)).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' ${api} data:`,
    `media-src 'self' ${api}`,
    `connect-src 'self' ${api}`,
    "form-action 'self'",
    // The installable web app's manifest (its share target adds a shared page to the listener's feed).
    "manifest-src 'self'",
    "base-uri 'none'",
    `frame-ancestors ${framable ? "*" : "'none'"}`,
  ].join("; ");
}

/** A complete public page: the shared shell, its security headers and the built assets it names. */
export function sitePage(env: object, page: SitePage): Response {
  const headers = new Headers({
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": contentSecurityPolicy(env, page.framable ?? false),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  });
  if (!page.framable) headers.set("X-Frame-Options", "DENY");
  // The header as well as the meta tag: crawlers that fetch without parsing HTML obey it too.
  if (page.noindex) headers.set("X-Robots-Tag", "noindex");
  for (const [name, value] of new Headers(page.headers)) headers.set(name, value);
  const styles = (page.styles ?? ["site.css"]).map((s) => `<link rel="stylesheet" href="${assetPath(s)}">`).join("");
  const scripts = (page.scripts ?? []).map((s) => `<script type="module" src="${assetPath(s)}"></script>`).join("");
  const lang = page.language ? `${escapeHtml(page.language)}" dir="${textDirection(page.language)}` : "en";
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="manifest" href="/manifest.webmanifest">${page.noindex ? '<meta name="robots" content="noindex">' : ""}${
    page.canonical ? `<link rel="canonical" href="${escapeHtml(page.canonical)}">` : ""
  }${styles}${scripts}${page.head ?? ""}</head>
<body${page.bodyClass ? ` class="${escapeHtml(page.bodyClass)}"` : ""}>${page.body}</body></html>`;
  return new Response(html, { status: page.status ?? 200, headers });
}
