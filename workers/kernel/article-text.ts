import { sha256Hex } from "../core/crypto";
import { narratedParagraphs } from "./paragraph-timings";

/**
 * What a narration of the article reads: the title, then the body, one paragraph after another
 * (narratedParagraphs), separated by blank lines so the render finds the same paragraphs.
 */
export function narratedText(a: { title: string; bodyText: string }): string {
  return narratedParagraphs(a).join("\n\n");
}

/**
 * SHA-256 of what is narrated (title and body), the voice and the language: a re-publish renders
 * only when it changes. English keeps the hash it had before languages, so re-publishing an article
 * of then renders nothing.
 */
export function contentHash(a: { title: string; body_text: string; voice?: string | null; language: string }): Promise<string> {
  const narrated = [a.title, a.body_text, a.voice ?? null];
  return sha256Hex(JSON.stringify(a.language === "en" ? narrated : [...narrated, a.language]));
}

/** Kebab-case slugs, and those derived for articles published without one. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 120;
/** Derived slugs stay shorter than the maximum, leaving room for a "-<n>" suffix. */
const DERIVED_LENGTH = 80;

/** "Why Your Café Costs €5!" → "why-your-cafe-costs-5"; accents folded, everything else a dash. */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, DERIVED_LENGTH)
    .replace(/^-+|-+$/g, "");
  return slug || "article";
}

/** The n-th candidate for a derived slug: the base, then base-2, base-3, ... */
export function slugCandidate(base: string, n: number): string {
  return n === 1 ? base : `${base}-${n}`;
}
