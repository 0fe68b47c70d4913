import { and, eq } from "drizzle-orm";
import { type ArticleRow, articles, type Database } from "../db";
import type { Listener } from "../kernel/listener-tokens";
import { contentHash, slugify } from "../kernel/article-text";
import { detectedLanguage } from "../kernel/language-detect";
import { cleanText } from "../core/text";
import { refreshTasteVector } from "./taste";

/** What a forward carries. Nothing is fetched: the archive holds exactly what the listener sent. */
export interface Forwarded {
  title: string;
  text: string;
  url: string | null;
  publisher: string;
  vertical: string;
  /** When the page says it was published (a link's article:published_time), if it does. */
  publishedAt?: Date | null;
  /** The language the page declares (its `lang`), read when the text alone cannot tell. */
  declaredLanguage?: string | null;
}

export const FORWARDED_VERTICAL = "news";
export const MAX_TITLE = 300;
/** Longest text a forward keeps (about two hours of narration); longer e-mail bodies are cut. */
export const MAX_TEXT = 200_000;

/** The first http(s) URL in `text`, if any. */
export function firstUrl(text: string): string | null {
  return /https?:\/\/[^\s<>"')\]]+/i.exec(text)?.[0].replace(/[.,;:!?]+$/, "") ?? null;
}

/** The publisher of a forwarded link: its host without www. */
export function publisherOf(url: string | null, fallback: string): string {
  if (!url) return fallback;
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return fallback;
  }
}

/**
 * Adds a forwarded article to the listener's own archive: listener_private, owned by them, so it
 * appears only in their feeds and can be rendered with render-now. Forwarding the same URL again
 * returns the article already there.
 */
export async function forwardArticle(db: Database, listener: Listener, f: Forwarded): Promise<{ article: ArticleRow; created: boolean }> {
  if (f.url) {
    const existing = await db.query.articles.findFirst({
      where: and(eq(articles.ownerListenerId, listener.id), eq(articles.visibility, "listener_private"), eq(articles.url, f.url)),
    });
    if (existing) return { article: existing, created: false };
  }
  // E-mail intake reaches here without request validation, and a cut can split a surrogate pair.
  const title = cleanText(f.title.trim().slice(0, MAX_TITLE)) || f.url || "Forwarded article";
  const bodyText = cleanText(f.text.trim().slice(0, MAX_TEXT)) || title;
  // A random suffix: slugs are public identifiers, and a private article's slug must not be guessable.
  // A forwarded page in a language no engine speaks is kept, and narrated in the default language.
  const spoken = detectedLanguage(`${title}\n${bodyText}`, f.declaredLanguage);
  const slug = `${slugify(title).slice(0, 60)}-${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const [article] = await db
    .insert(articles)
    .values({
      slug,
      title,
      publisher: cleanText(f.publisher),
      vertical: f.vertical,
      summary: cleanText(bodyText.slice(0, 280)),
      bodyText,
      url: f.url,
      publishedAt: f.publishedAt ?? null,
      visibility: "listener_private",
      ownerListenerId: listener.id,
      language: spoken.language,
      languageSource: spoken.language_source,
      contentHash: await contentHash({ title, body_text: bodyText, language: spoken.language }),
    })
    .returning();
  await refreshTasteVector(db, listener);
  return { article, created: true };
}
