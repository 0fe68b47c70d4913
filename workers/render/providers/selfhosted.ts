import * as v from "valibot";
import { audioBytes, postWithTimeout, REQUEST_TIMEOUT_MS, wavResult, type FetchFn } from "./http";
import { readBodyText } from "../../core/validate";
import { isRedirect } from "../../kernel/guarded-fetch";
import { fail, type SynthFailure, type SynthResult } from "./result";
import type { Synthesizer, VoiceListing } from "./synthesizer";
import { aliasText } from "../../kernel/lexicon";
import { loggableError } from "../../core/errors";

/** The model asked for when SELFHOSTED_TTS_MODEL is empty: Kokoro-FastAPI's name for Kokoro-82M. */
export const SELFHOSTED_DEFAULT_MODEL = "kokoro";

/** How long a server's voice list is reused by this isolate, and a failure to get one. */
export const VOICE_LIST_TTL_MS = 60_000;
const FAILED_LIST_TTL_MS = 10_000;
/** The voice list is a small JSON document: a server that takes longer is not answering. */
const LIST_TIMEOUT_MS = 5_000;
/** Kokoro-FastAPI's list of some sixty voices is 2 kB; a list larger than this is not one. */
const LIST_MAX_BYTES = 256 * 1024;

export interface SelfHostedOptions {
  /** The server's OpenAI-compatible base, e.g. http://127.0.0.1:8880/v1. */
  baseUrl: string;
  /** Sent as a bearer token when set. */
  apiKey?: string;
  model?: string;
  /** The voices to assume when the server does not list its own (SELFHOSTED_TTS_VOICES). */
  configuredVoices?: string[];
  fetchFn?: FetchFn;
  timeoutMs?: number;
}

/**
 * A self-hosted neural engine: an OpenAI-compatible speech server on the operator's machine or
 * network (Kokoro-FastAPI, Speaches, LocalAI). Speech is POST {base}/audio/speech asking for a whole
 * WAVE file (`response_format: "wav"`, `stream: false`), since such a server may run any model at
 * any sample rate and a WAVE header says which; raw PCM would have to be taken on trust. The voices
 * are what the server lists at GET {base}/audio/voices (Kokoro-FastAPI: {"voices": [...]}), kept for
 * VOICE_LIST_TTL_MS per isolate; a server that lists none is taken to have SELFHOSTED_TTS_VOICES, or,
 * without them, every catalogue voice of the provider. Such servers take plain text: the lexicon's
 * aliases replace their words.
 */
export function selfHostedSynthesizer(options: SelfHostedOptions): Synthesizer & { voices(): Promise<VoiceListing> } {
  const base = options.baseUrl.replace(/\/+$/, "");
  const fetchFn = options.fetchFn ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const auth: Record<string, string> = options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {};
  const configured = options.configuredVoices ?? [];
  return {
    async synthesize(text, offer, lexicon = []) {
      const response = await postWithTimeout(
        fetchFn,
        `${base}/audio/speech`,
        {
          headers: { ...auth, "Content-Type": "application/json" },
          body: JSON.stringify({
            model: options.model || SELFHOSTED_DEFAULT_MODEL,
            input: aliasText(text, lexicon),
            voice: offer.native,
            response_format: "wav",
            stream: false,
          }),
        },
        timeoutMs,
      );
      return wholeWavResult(response);
    },
    async voices() {
      const hit = lists.get(base);
      if (hit && hit.until > Date.now()) return hit.listing;
      const listing = await listVoices(fetchFn, `${base}/audio/voices`, auth, configured, Math.min(timeoutMs, LIST_TIMEOUT_MS));
      lists.set(base, { until: Date.now() + ("error" in listing ? FAILED_LIST_TTL_MS : VOICE_LIST_TTL_MS), listing });
      return listing;
    },
  };
}

/**
 * Voice lists per server base URL, for this isolate. Lists are kept, never a request in flight: a
 * Worker request may not wait on another request's I/O (kernel/article-by-slug.ts says what workerd
 * does then), so concurrent first asks each make their own.
 */
const lists = new Map<string, { until: number; listing: VoiceListing }>();

/** Forgets every voice list (tests start from a server not yet asked). */
export function forgetVoiceLists(): void {
  lists.clear();
}

// Kokoro-FastAPI answers {"voices": ["af_heart", ...]}; other servers list objects that carry an id or
// a name, at the top level or under "voices" or "data".
const Named = v.union([
  v.string(),
  v.pipe(
    v.object({ id: v.string() }),
    v.transform((o) => o.id),
  ),
  v.pipe(
    v.object({ name: v.string() }),
    v.transform((o) => o.name),
  ),
]);
const VoiceList = v.union([
  v.array(Named),
  v.pipe(
    v.object({ voices: v.array(Named) }),
    v.transform((o) => o.voices),
  ),
  v.pipe(
    v.object({ data: v.array(Named) }),
    v.transform((o) => o.data),
  ),
]);

async function listVoices(fetchFn: FetchFn, url: string, auth: Record<string, string>, configured: string[], timeoutMs: number): Promise<VoiceListing> {
  const unlisted: VoiceListing = configured.length > 0 ? { names: configured } : { all: true };
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    // Never followed: the server must list its voices where it is configured (http.ts postWithTimeout).
    response = await fetchFn(url, { method: "GET", headers: auth, redirect: "manual", signal });
  } catch (err) {
    if (signal.aborted) return { error: `no answer to GET /audio/voices within ${timeoutMs} ms` };
    // The reason is public (GET /v1/voices): the network error's text, which can name internal hosts
    // and addresses, goes to the log only.
    console.warn(`self-hosted TTS: GET /audio/voices failed: ${loggableError(err)}`);
    return { error: "GET /audio/voices failed: no connection" };
  }
  // A server without a voice list (404, 405, 501) is not failing: it just does not say.
  if (response.status === 404 || response.status === 405 || response.status === 501) {
    await response.body?.cancel();
    return unlisted;
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { error: `GET /audio/voices answered HTTP ${response.status}${isRedirect(response.status) ? ", a redirect, not followed" : ""}` };
  }
  const document = await readBodyText(response, LIST_MAX_BYTES)
    .then(JSON.parse)
    .catch(() => null);
  const parsed = v.safeParse(VoiceList, document);
  return parsed.success && parsed.output.length > 0 ? { names: parsed.output } : unlisted;
}

/** Data sizes that streaming writers put in a header they cannot go back to fix. */
const PLACEHOLDER_SIZE = 0x7f000000;

/**
 * A whole WAVE file: a page instead of audio, a body broken off (the connection dropped) or shorter
 * than its header's data size (the server stopped writing) is bad audio, never a shorter narration.
 */
async function wholeWavResult(response: Response | SynthFailure): Promise<SynthResult> {
  const bytes = await audioBytes(response);
  if (!(bytes instanceof Uint8Array)) return bytes;
  const declared = dataChunkSize(bytes);
  if (declared !== null && declared.size > 0 && declared.size < PLACEHOLDER_SIZE && declared.present < declared.size) {
    return fail("bad_audio", `truncated WAVE: ${declared.present} of ${declared.size} data bytes`);
  }
  const result = wavResult(() => bytes);
  return result.ok && result.pcm.samples.length === 0 ? fail("bad_audio", "WAVE file without samples") : result;
}

/** The data chunk's declared size and the bytes of it present, or null when there is none. */
function dataChunkSize(bytes: Uint8Array): { size: number; present: number } | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let o = 12; o + 8 <= bytes.length; ) {
    const size = view.getUint32(o + 4, true);
    if (String.fromCharCode(bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]) === "data") return { size, present: bytes.length - o - 8 };
    o += 8 + size + (size & 1);
  }
  return null;
}
