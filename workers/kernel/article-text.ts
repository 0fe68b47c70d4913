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
