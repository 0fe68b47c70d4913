import { articlePageUrl, baseUrl } from "../core/config";
import { articleView, type ArticleView } from "./article-view";
import { oembedDiscovery } from "./oembed";
import { escapeHtml } from "./page";
import { articleTextLabel, bodyParagraphs, headingText, paragraphAttributes, playerOrNotice, subscribeUrl } from "./player-markup";
import { PUBLIC_CACHE, sitePage } from "./site-page";

/** The framed page of an article that is not there for anonymous viewers: no audio, noindex. */
function missing(env: object): Response {
  return sitePage(env, {
    title: "Article not found",
    body: `<main class="embed-main"><h1>Article not found</h1><p>This article is not available.</p></main>`,
    bodyClass: "embed",
    framable: true,
    noindex: true,
    status: 404,
    headers: PUBLIC_CACHE,
  });
}

/** What the embed shows below the title: the player and the text, a stub's notice, or "not ready". */
function embedBody(env: object, view: ArticleView): string {
  const open = (href: string, text: string) => `<a href="${escapeHtml(href)}" target="_blank" rel="noopener">${escapeHtml(text)}</a>`;
  const links = `<p class="embed-links">${open(articlePageUrl(env, view.slug), "Read the article")} · ${open(subscribeUrl(env), "Subscribe to the podcast")}</p>`;
  if (view.stub) {
    const original = view.url ? ` ${open(view.url, `Read it at ${view.publisher}`)}.` : "";
    return `<p>The publisher keeps this article on its own site; there is no narration to play here.${original}</p>${links}`;
  }
  return `${playerOrNotice(env, view, `${baseUrl(env)}/v1/articles/${encodeURIComponent(view.slug)}/beacons`)}<div class="transcript" data-transcript role="region" aria-label="${articleTextLabel(view)}" tabindex="0">${bodyParagraphs(view)}</div>${links}`;
}

/**
 * GET {WEB_URL}/embed/article/{slug}: the embeddable player (docs/rules.md "Rules" 4). Any site may frame
 * it (sitePage `framable`); its scripts come from this origin only. A stub or an article an
 * anonymous viewer may not see shows no audio and carries noindex (docs/rules.md "Rules" 2).
 */
export async function embedPage(env: Env, slug: string): Promise<Response> {
  const view = await articleView(env, slug);
  if (!view) return missing(env);
  const heading = view.paragraphs[0];
  return sitePage(env, {
    title: `${view.title} · ${view.publisher}`,
    head: oembedDiscovery(env, view),
    body: `<main class="embed-main"><header class="embed-header"><h1${heading ? paragraphAttributes(heading, 0) : ""}>${headingText(view)}</h1>
<p class="publisher">${escapeHtml(view.publisher)}</p></header>${embedBody(env, view)}</main>`,
    scripts: view.audio ? ["player.js"] : [],
    language: view.language,
    bodyClass: "embed",
    framable: true,
    noindex: view.stub,
    canonical: articlePageUrl(env, view.slug),
    headers: PUBLIC_CACHE,
  });
}
