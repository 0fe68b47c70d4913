/**
 * The cache key: SHA-256 (hex) of the UTF-8 bytes of `provider`, `voice` and the normalised text
 * joined by newlines. Provider and voice ids never contain a newline, so the three parts are
 * unambiguous. `text` must already be normalised (normaliseText).
 */
export async function cacheKey(provider: string, voice: string, text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${provider}\n${voice}\n${text}`));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
