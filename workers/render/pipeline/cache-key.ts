import { sha256Hex } from "../../core/crypto";

/**
 * The cache key: SHA-256 (hex) of the UTF-8 bytes of `provider`, `voice` and the normalised text
 * joined by newlines, and, when pronunciation entries apply (kernel/lexicon.ts), a NUL and the digest
 * of those entries, and, for the text of a tenant (RenderInput.tenant), a NUL and "tenant:" with its
 * name: audio is reused only within the tenant whose text it is (issue 40 item 3). Provider and voice
 * ids never contain a newline and normalised text never holds a NUL, a digest is hex, so the parts are
 * unambiguous, and a text no entry touches and no tenant owns keys as it did before both.
 * `text` must already be normalised (normaliseText).
 */
export function cacheKey(provider: string, voice: string, text: string, lexiconDigest: string | null = null, tenant: string | null = null): Promise<string> {
  const digest = lexiconDigest === null ? "" : `\u0000${lexiconDigest}`;
  const owner = tenant === null ? "" : `\u0000tenant:${tenant}`;
  return sha256Hex(`${provider}\n${voice}\n${text}${digest}${owner}`);
}

/**
 * What a stored paragraph's audio also depends on besides its provider, voice, text and
 * pronunciations: how it is made (master rate and sample format, loudness target, the join's pauses
 * and fades, the watermark's scheme). Changing any of them changes this, so no paragraph made the old way is reused.
 */
const PARAGRAPH_AUDIO = "paragraph-v2 24000 Hz s16le -16 LUFS watermark-v1";

/**
 * The content address of one paragraph's audio (pipeline/paragraph-cache.ts): as cacheKey, over
 * the paragraph's normalised text and the digest of the entries that apply to that paragraph, with
 * PARAGRAPH_AUDIO as a first line, which no provider id is, so it never equals an article's key.
 */
export function paragraphKey(provider: string, voice: string, text: string, lexiconDigest: string | null, tenant: string | null = null): Promise<string> {
  return cacheKey(`${PARAGRAPH_AUDIO}\n${provider}`, voice, text, lexiconDigest, tenant);
}
