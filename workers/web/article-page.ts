import { articlePageUrl, embedPlayerUrl, webUrl } from "../core/config";
import { verticalLabel } from "../kernel/verticals";
import { articleView, type ArticleView } from "./article-view";
import { oembedDiscovery } from "./oembed";
import { escapeHtml } from "./page";
import { articleArtUrl, bodyParagraphs, EMBED_HEIGHT, embedSnippet, headingText, paragraphAttributes, playerOrNotice, subscribeUrl } from "./player-markup";
import { siteFooter, siteHeader } from "./site-chrome";
import { PUBLIC_CACHE, sitePage } from "./site-page";

/** The description cards and search results show: the summary, else the start of the text. */
function description(view: ArticleView): string {
  const text = view.summary || view.paragraphs[1]?.text || `${view.title}, from ${view.publisher}.`;
  return text.length > 200 ? `${text.slice(0, 197).replace(/\s+\S*$/, "")}…` : text;
}

const meta = (attr: "property" | "name", key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;

/** ISO 8601 duration (schema.org Duration), e.g. PT3M5S. */
function isoDuration(seconds: number): string {
  const s = Math.round(seconds);
  return `PT${Math.floor(s / 60)}M${s % 60}S`;
}

/**
 * Open Graph (https://ogp.me) and Twitter card tags: the topic art as the image; with audio, the
 * MP3 as og:audio and the embed as a Twitter player card.
 */
function cardTags(env: object, view: ArticleView): string {
  const url = articlePageUrl(env, view.slug);
  const image = articleArtUrl(env, view);
  const tags = [
    meta("property", "og:type", "article"),
    meta("property", "og:site_name", "Narration"),
    meta("property", "og:title", view.title),
    meta("property", "og:description", description(view)),
    meta("property", "og:url", url),
    meta("property", "og:image", image),
    meta("property", "og:image:width", "1200"),
    meta("property", "og:image:height", "630"),
    meta("property", "og:image:alt", `${verticalLabel(view.vertical)} topic art`),
    meta("name", "description", description(view)),
    meta("name", "twitter:title", view.title),
    meta("name", "twitter:description", description(view)),
    meta("name", "twitter:image", image),
  ];
  if (view.publishedAt) tags.push(meta("property", "article:published_time", view.publishedAt.toISOString()));
  if (view.audio) {
    tags.push(
      meta("property", "og:audio", view.audio.mp3),
      meta("property", "og:audio:type", "audio/mpeg"),
      meta("name", "twitter:card", "player"),
      meta("name", "twitter:player", embedPlayerUrl(env, view.slug)),
      meta("name", "twitter:player:width", "600"),
      meta("name", "twitter:player:height", String(EMBED_HEIGHT)),
    );
  } else {
    tags.push(meta("name", "twitter:card", "summary_large_image"));
  }
  return tags.join("");
}

/** schema.org NewsArticle with its narration as an AudioObject (https://schema.org/NewsArticle). */
export function articleJsonLd(env: object, view: ArticleView): Record<string, unknown> {
  const url = articlePageUrl(env, view.slug);
  return {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: view.title,
    description: description(view),
    url,
    mainEntityOfPage: url,
    image: [articleArtUrl(env, view)],
    datePublished: (view.publishedAt ?? view.createdAt).toISOString(),
    dateModified: (view.updatedAt ?? view.publishedAt ?? view.createdAt).toISOString(),
    articleSection: verticalLabel(view.vertical),
    publisher: { "@type": "Organization", name: view.publisher },
    author: { "@type": "Organization", name: view.publisher },
    ...(view.url ? { isBasedOn: view.url } : {}),
    ...(view.audio
      ? {
          audio: {
            "@type": "AudioObject",
            name: view.title,
            contentUrl: view.audio.mp3,
            embedUrl: embedPlayerUrl(env, view.slug),
            encodingFormat: "audio/mpeg",
            ...(view.listenSeconds ? { duration: isoDuration(view.listenSeconds) } : {}),
          },
        }
      : {}),
  };
}

/** JSON inside <script>: "<" escaped so no text of the article can close the element. */
function jsonScript(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value).replace(/</g, "\\u003c")}</script>`;
}

function byline(view: ArticleView): string {
  const parts = [escapeHtml(view.publisher), escapeHtml(verticalLabel(view.vertical))];
  const date = view.publishedAt ?? view.createdAt;
  parts.push(`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 10)}</time>`);
  if (view.listenSeconds) parts.push(`${Math.max(1, Math.round(view.listenSeconds / 60))} min listen`);
  return `<p class="byline">${parts.join(" · ")}</p>`;
}

function articleBody(env: object, view: ArticleView): string {
  const original = view.url ? `<p><a href="${escapeHtml(view.url)}">Read the original at ${escapeHtml(view.publisher)}</a></p>` : "";
  if (view.stub) return `<p>The publisher keeps this article on its own site; only its title is shown here.</p>${original}`;
  const embed = view.audio
    ? `<details class="embed-snippet"><summary>Embed this player</summary><label for="snippet">Paste this HTML into your page:</label>
<textarea id="snippet" class="snippet" rows="4" readonly>${escapeHtml(embedSnippet(env, view))}</textarea>
<p class="muted">Or paste the article's address into a CMS that reads oEmbed.</p></details>`
    : "";
  return `${playerOrNotice(env, view)}<div class="article-text">${bodyParagraphs(view)}</div>${original}${embed}<p><a href="${escapeHtml(subscribeUrl(env))}">Subscribe: get articles like this in your podcast app</a></p>`;
}

/**
 * GET {WEB_URL}/articles/{slug}: the article's page, readable without script, with the player, card
 * tags, JSON-LD and its canonical URL. Stubs carry noindex and show neither text nor audio
 * (docs/rules.md "Rules" 2); an article an anonymous viewer may not see is a 404.
 */
export async function articlePage(env: Env, slug: string): Promise<Response> {
  const view = await articleView(env, slug);
  if (!view) {
    return sitePage(env, {
      title: "Article not found",
      body: `${siteHeader()}<main><h1>Article not found</h1><p><a href="${escapeHtml(webUrl(env))}/">Find articles to listen to</a></p></main>${siteFooter(env)}`,
      noindex: true,
      status: 404,
      headers: PUBLIC_CACHE,
    });
  }
  const heading = view.paragraphs[0];
  return sitePage(env, {
    title: `${view.title} · ${view.publisher}`,
    head: `${cardTags(env, view)}${view.stub ? "" : jsonScript(articleJsonLd(env, view))}${view.stub ? "" : oembedDiscovery(env, view)}`,
    body: `${siteHeader()}<main><article><h1${heading ? paragraphAttributes(heading, 0) : ""}>${headingText(view)}</h1>${byline(view)}${articleBody(env, view)}</article></main>${siteFooter(env)}`,
    scripts: view.audio ? ["player.js"] : [],
    language: view.language,
    noindex: view.stub,
    canonical: articlePageUrl(env, view.slug),
    headers: PUBLIC_CACHE,
  });
}
