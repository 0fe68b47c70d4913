import { parseRssFeed } from "feedsmith";
import { escapeHtml } from "../core/text";
import { textDirection } from "../kernel/language";
import { podcastApps } from "../kernel/public-urls";

/**
 * A feed as a browser sees it (docs/feeds.md "Feeds in a browser"): an HTML page drawn on the server
 * from the feed's own XML, so it shows nothing the feed does not (a private feed's page gives away no
 * more than its XML, and much less: no audio addresses). What it is, one-tap buttons for podcast apps
 * (the links of podcastApps, workers/kernel/public-urls.ts), the address to copy and the episodes.
 * Every text in it comes from publishers and listeners and is written as text (escapeHtml). The page
 * is in the feed's language (its channel's <language>, with the direction of that language's script);
 * its own few words are English and say so.
 */

/** The page's look, inline: it is served from the API's origin, where the site's sheets are not. */
const STYLE = `*{box-sizing:border-box}body{font:17px/1.55 system-ui,sans-serif;margin:0;overflow-wrap:anywhere;color:#1d1d1f;background:#fff}
main{max-width:46rem;margin:0 auto;padding:1rem}a{color:#0b57d0}h1{line-height:1.2;margin:.2rem 0}
.kind{color:#555;margin:0}.cover{float:inline-end;width:8rem;height:8rem;margin-block-end:1rem;margin-inline-start:1rem;border-radius:8px}
.apps{display:flex;flex-wrap:wrap;gap:.5rem;padding:0;list-style:none}
.apps a{display:inline-block;padding:.4em .9em;border:1px solid #0b57d0;border-radius:999px;text-decoration:none}
.warn{background:#fff4d6;padding:.6em .8em;border-radius:6px}.note{color:#555;font-size:.92em}
input{font:inherit;width:100%;padding:.35em}ol{padding-inline-start:1.4rem}li{margin:.35rem 0}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
@media (prefers-color-scheme:dark){body{background:#121214;color:#ececf0}a{color:#8ab4f8}.apps a{border-color:#8ab4f8}
.kind,.note{color:#b4b4bc}.warn{background:#3d3320}input{background:#1d1d20;color:#ececf0;border:1px solid #55555c}}`;

/** No script runs; the only thing it loads is the cover art; it may not be framed. */
const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
};

/** The page's own words, English whatever the feed's language, read left to right. */
const EN = 'lang="en" dir="ltr"';

/** An address the page may link to: http(s) only. */
const webLink = (href: string | undefined) => (href && /^https?:\/\//i.test(href) ? href : undefined);

/** An episode's date in the page's language, or nothing when the feed's is not a date. */
function dated(pubDate: string | undefined, language: string): string {
  const date = pubDate ? new Date(pubDate) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" });
  } catch {
    format = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });
  }
  return ` <span class="note">· <time datetime="${date.toISOString()}">${escapeHtml(format.format(date))}</time></span>`;
}

/** The HTML page of the feed `xml`; `headers` are the feed's own (caching, referrer, robots). */
export function feedPage(xml: string, headers: Headers): Response {
  const feed = parseRssFeed(xml);
  const language = feed.language ?? "en";
  const self = feed.atom?.links?.find((l) => l.rel === "self")?.href ?? "";
  const title = feed.title ?? "";
  const cover = webLink(feed.itunes?.image);
  const site = webLink(feed.link);
  const episodes = (feed.items ?? [])
    .map((item) => {
      const link = webLink(item.link);
      const name = escapeHtml(item.title ?? "");
      return `<li>${link ? `<a href="${escapeHtml(link)}">${name}</a>` : name}${dated(item.pubDate, language)}</li>`;
    })
    .join("");
  const apps = self
    ? podcastApps(self)
        .map((app) => `<li><a href="${escapeHtml(app.href)}">${escapeHtml(app.name)}</a></li>`)
        .join("")
    : "";
  const html = `<!doctype html><html lang="${escapeHtml(language)}" dir="${textDirection(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>
${cover ? `<img class="cover" alt="" src="${escapeHtml(cover)}">` : ""}<p class="kind" ${EN}>Podcast feed</p>
<h1>${escapeHtml(title)}</h1>
<p class="about">${escapeHtml(feed.description ?? "")}</p>
${feed.podcast?.locked?.value ? `<p class="warn" ${EN}>This is a private feed: its address works like a password. Add it to your own podcast app and share it with nobody.</p>` : ""}
<h2 id="subscribe" ${EN}>Subscribe</h2>
<p ${EN}>This address is a podcast feed, made for podcast apps. Open it in yours with one tap:</p>
<ul class="apps" aria-labelledby="subscribe">${apps}</ul>
<p ${EN}><label for="feed-url">Or copy this address into any podcast app:</label></p>
<input id="feed-url" type="text" readonly value="${escapeHtml(self)}" dir="ltr">
<h2 id="episodes" ${EN}>Episodes</h2>
${episodes ? `<ol aria-labelledby="episodes">${episodes}</ol>` : `<p ${EN}>No episodes yet.</p>`}
${site ? `<p class="note" ${EN}><a href="${escapeHtml(site)}">Narration</a>: articles, read aloud.</p>` : ""}
</main></body></html>`;
  const out = new Headers(headers);
  for (const name of ["Content-Type", "ETag", "Last-Modified", "Content-Length"]) out.delete(name);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) out.set(name, value);
  return new Response(html, { status: 200, headers: out });
}
