import { sha256Hex } from "../../core/crypto";

/**
 * The cache key: SHA-256 (hex) of the UTF-8 bytes of `provider`, `voice` and the normalised text
 * joined by newlines, and, when pronunciation entries apply (kernel/lexicon.ts), a NUL and the digest
 * of those entries. Provider and voice ids never contain a newline and normalised text never holds a
 * NUL, so the parts are unambiguous, and a text no entry touches keys as it did before the lexicon.
 * `text` must already be normalised (normaliseText).
 */
export function cacheKey(provider: string, voice: string, text: string, lexiconDigest: string | null = null): Promise<string> {
  return sha256Hex(`${provider}\n${voice}\n${text}${lexiconDigest === null ? "" : `\u0000${lexiconDigest}`}`);
}
