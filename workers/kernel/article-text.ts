import { sha256Hex } from "../core/crypto";
import { narratedParagraphs } from "./paragraph-timings";

/**
 * What a narration of the article reads: the title, then the body, one paragraph after another
 * (narratedParagraphs), separated by blank lines so the render finds the same paragraphs.
 */
export function narratedText(a: { title: string; bodyText: string }): string {
  return narratedParagraphs(a).join("\n\n");
}

/** SHA-256 of what is narrated (title and body) and the voice: a re-publish renders only when it changes. */
export function contentHash(a: { title: string; body_text: string; voice?: string | null }): Promise<string> {
  return sha256Hex(JSON.stringify([a.title, a.body_text, a.voice ?? null]));
}
