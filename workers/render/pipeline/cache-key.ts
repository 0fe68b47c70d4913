import { sha256Hex } from "../../core/crypto";

/**
 * The cache key: SHA-256 (hex) of the UTF-8 bytes of `provider`, `voice` and the normalised text
 * joined by newlines. Provider and voice ids never contain a newline, so the three parts are
 * unambiguous. `text` must already be normalised (normaliseText).
 */
export function cacheKey(provider: string, voice: string, text: string): Promise<string> {
  return sha256Hex(`${provider}\n${voice}\n${text}`);
}
