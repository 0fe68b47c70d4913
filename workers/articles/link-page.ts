import { isProbablyReaderable, Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { cleanText } from "../core/text";
import { decodeText, type Fetched, guardedFetch } from "../kernel/guarded-fetch";

/**
 * A web page read as an article: Mozilla's Readability (the reader view of Firefox) over linkedom's
 * server-side DOM takes the article out of the page (navigation, ads and comments left behind), and the
 * page's own metadata gives its title, byline, site, time and canonical address. A page that is not an
 * article, or that asks machines not to read it, is refused with the reason in words.
 */

/** A page as linkedom parses it, and as Readability takes it (the DOM's Document, which Workers' types do not have). */
type PageDocument = ReturnType<typeof parseHTML>["document"];
type ReaderDocument = ConstructorParameters<typeof Readability>[0];

/** The bounds of a page fetch (issue 45): 5 MB, 10 s, five redirects, HTML or plain text. */
export const PAGE_LIMITS = {
  accept: "text/html,application/xhtml+xml,text/plain;q=0.8",
  types: ["text/html", "application/xhtml+xml", "text/plain"],
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 5,
  noun: "the page",
} as const;

/** The fewest characters of article text worth narrating: less is a teaser, a login wall or a home page. */
export const MIN_ARTICLE_CHARS = 400;

export interface LinkArticle {
  title: string;
  /** Paragraphs separated by blank lines, as the narration pipeline reads them. */
  text: string;
  byline: string | null;
  siteName: string | null;
  publishedTime: string | null;
  /** The page's canonical address when it names one on the same scheme family, else the address that answered. */
  url: string;
  /** The language the page declares (its <html lang>), if any. */
  lang: string | null;
}

/** Why a page gives no article; the message is shown to the listener. */
export class NoArticle extends Error {}

/** Opt-outs of machine reading: X-Robots-Tag or a robots meta naming noai (or noimageai's sibling for text, noai). */
function optsOut(values: (string | null | undefined)[]): boolean {
  return values.some((v) =>
    (v ?? "")
      .toLowerCase()
      .split(/[,\s]+/)
      .some((token) => token === "noai" || token.endsWith(":noai")),
  );
}

/** Block elements of Readability's article HTML, each a paragraph of the narration. */
const BLOCKS = "h1, h2, h3, h4, h5, h6, p, li, blockquote, pre, figcaption, td";

function paragraphsOf(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const blocks = [...document.querySelectorAll(BLOCKS)].filter((el) => !el.querySelector(BLOCKS));
  return blocks
    .map((el) => cleanText((el.textContent ?? "").replace(/\s+/g, " ").trim()))
    .filter((t) => t.length > 0)
    .join("\n\n");
}

/** The canonical address the page names, when it is http(s); else the address that answered. */
function canonicalOf(document: PageDocument, answered: URL): string {
  const href = document.querySelector('link[rel="canonical"]')?.getAttribute("href");
  if (href) {
    const url = URL.parse(href, answered);
    if (url && (url.protocol === "https:" || url.protocol === "http:")) return url.href;
  }
  return answered.href;
}

const meta = (document: PageDocument, selector: string) => document.querySelector(selector)?.getAttribute("content")?.trim() || null;

/** The article of a fetched page, or NoArticle with the reason. */
export function articleOf(fetched: Pick<Fetched, "url" | "headers" | "mediaType" | "bytes">): LinkArticle {
  if (optsOut([fetched.headers.get("X-Robots-Tag")])) throw new NoArticle("the page asks not to be read by machines (X-Robots-Tag: noai)");
  const source = decodeText(fetched);
  if (fetched.mediaType === "text/plain") {
    const text = source
      .split(/\n\s*\n/)
      .map((p) => cleanText(p.replace(/\s+/g, " ").trim()))
      .filter(Boolean)
      .join("\n\n");
    if (text.length < MIN_ARTICLE_CHARS) throw new NoArticle(`the page has too little text to narrate (${text.length} characters)`);
    const title = text.split("\n\n")[0].slice(0, 200);
    return { title, text, byline: null, siteName: null, publishedTime: null, url: fetched.url.href, lang: null };
  }
  const { document } = parseHTML(source);
  if (optsOut([...document.querySelectorAll('meta[name="robots" i], meta[name="ai" i]')].map((m) => m.getAttribute("content"))))
    throw new NoArticle("the page asks not to be read by machines (robots meta: noai)");
  const url = canonicalOf(document, fetched.url);
  const lang = document.documentElement?.getAttribute("lang")?.trim() || null;
  const publishedTime = meta(document, 'meta[property="article:published_time"]');
  // Readability rewrites the document it reads: metadata is taken first.
  if (!isProbablyReaderable(document as unknown as ReaderDocument))
    throw new NoArticle("the page does not look like an article (a home page, a list or a sign-in form?)");
  const article = new Readability(document as unknown as ReaderDocument).parse();
  const text = article?.content ? paragraphsOf(article.content) : "";
  if (!article || text.length < MIN_ARTICLE_CHARS) throw new NoArticle(`the page has too little article text to narrate (${text.length} characters)`);
  return {
    title: cleanText(article.title?.trim() || fetched.url.hostname),
    text,
    byline: article.byline?.trim() || null,
    siteName: article.siteName?.trim() || null,
    publishedTime: article.publishedTime ?? publishedTime,
    url,
    lang: article.lang?.trim() || lang,
  };
}

/** Fetches `url` through the guarded fetcher and reads its article (FetchRefused or NoArticle say why not). */
export async function fetchLinkArticle(env: object, url: URL): Promise<LinkArticle> {
  return articleOf(await guardedFetch(env, url, PAGE_LIMITS));
}
