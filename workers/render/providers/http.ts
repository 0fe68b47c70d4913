import { ApiError } from "../../core/errors";
import { readBodyBytes } from "../../core/validate";
import { isRedirect } from "../../kernel/guarded-fetch";
import { fromInt16Le } from "../engine/pcm";
import { decodeWav } from "../engine/wav";
import { fail, type FailureReason, type SynthFailure, type SynthResult } from "./result";

/** Upper bound on one provider request; a long article is many requests, each with its own budget. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The most bytes of audio one answer may bring. The longest request (5,000 characters,
 * kernel/voice-catalogue.ts) is about five and a half minutes of speech at 15 characters a second: as
 * 16-bit mono that is 16 MB at 24 kHz (OpenAI's and Kokoro's rate), 32 MB at 48 kHz. 24 MiB holds any
 * answer at 24 kHz with room for slow speech, and the body with its samples as Float32 (twice its
 * size) stays within the render Worker's 128 MB; a larger one is refused as it streams, never held.
 */
export const MAX_AUDIO_BYTES = 24 * 1024 * 1024;

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

/** Maps an unsuccessful HTTP status to a failure reason (429 per RFC 6585 §4). */
export function reasonForStatus(status: number): FailureReason {
  if (status === 429) return "rate_limited";
  if (status >= 500) return "upstream_5xx";
  if (status === 401 || status === 403) return "unauthorized";
  return "rejected";
}

/** An error status's message is read for its first words only: more than this is not a message. */
const ERROR_BODY_BYTES = 64 * 1024;

export type Classify = (status: number, body: string) => FailureReason;

/** OpenAI, Google and Azure all answer 400 with a message naming the voice when they do not have it. */
export const voiceAwareReason: Classify = (status, body) => (status === 400 && /voice/i.test(body) ? "invalid_voice" : reasonForStatus(status));

/** The failure an error status stands for, with the first part of the provider's message. */
export async function statusFailure(response: Response, classify: Classify = voiceAwareReason): Promise<SynthFailure> {
  const body = await readBodyBytes(response, ERROR_BODY_BYTES)
    .then((bytes) => new TextDecoder().decode(bytes))
    .catch(() => "");
  return fail(classify(response.status, body), `HTTP ${response.status}: ${body.slice(0, 200)}`);
}

/**
 * POSTs with a deadline and returns the successful response, or the failure as a value: a timeout,
 * a network error, a redirect, or an error status with the first part of the provider's message.
 * A provider's address is the operator's, but not where its answer points: a redirect is never
 * followed (it could lead the render Worker to a private address, kernel/guarded-fetch.ts), a
 * provider must answer at the address configured.
 */
export async function postWithTimeout(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  classify: Classify = voiceAwareReason,
): Promise<Response | SynthFailure> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetchFn(url, { ...init, method: "POST", redirect: "manual", signal });
  } catch (err) {
    if (signal.aborted) return fail("timeout", `no answer within ${timeoutMs} ms`);
    return fail("network", err instanceof Error ? err.message : String(err));
  }
  if (response.ok) return response;
  if (isRedirect(response.status)) return redirectFailure(response);
  return statusFailure(response, classify);
}

/** A redirect from a provider, refused unread: the request is wrong where it was sent, not the provider unwell. */
export async function redirectFailure(response: Response): Promise<SynthFailure> {
  await response.body?.cancel();
  return fail("redirected", `HTTP ${response.status}: the provider redirects; a redirect is not followed`);
}

/** Reads a successful body within `limit` bytes as it streams; the request's deadline still applies. */
export async function readBytes(response: Response, limit = MAX_AUDIO_BYTES): Promise<Uint8Array | SynthFailure> {
  try {
    return await readBodyBytes(response, limit);
  } catch (err) {
    if (err instanceof ApiError && err.code === "payload_too_large") return fail("too_large", `the answer is larger than ${limit} bytes`);
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return fail(timedOut ? "timeout" : "network", err instanceof Error ? err.message : String(err));
  }
}

/** What a misconfigured endpoint or a proxy answers with a 200 instead of audio (an HTML or JSON page). */
const NOT_AUDIO = /^\s*(text\/|application\/(json|xml|problem\+json))/i;

/**
 * The body of an answer to a request for audio, or the request's failure: a page instead of audio
 * is bad audio, a body broken off a timeout or network failure (readBytes).
 */
export async function audioBytes(response: Response | SynthFailure): Promise<Uint8Array | SynthFailure> {
  if (!(response instanceof Response)) return response;
  const type = response.headers.get("content-type") ?? "";
  if (NOT_AUDIO.test(type)) {
    await response.body?.cancel();
    return fail("bad_audio", `${type} instead of audio`);
  }
  return readBytes(response);
}

/**
 * The outcome of a request for raw 16-bit little-endian mono PCM at `sampleRate`. Raw PCM cannot be
 * checked for sense, so what can be is: a page instead of audio, and a body that is empty or ends
 * mid-sample, are bad audio rather than noise in the master.
 */
export async function pcm16Result(response: Response | SynthFailure, sampleRate: number): Promise<SynthResult> {
  const bytes = await audioBytes(response);
  if (!(bytes instanceof Uint8Array)) return bytes;
  if (bytes.length === 0 || bytes.length % 2 !== 0) return fail("bad_audio", `${bytes.length} bytes is not 16-bit PCM`);
  return { ok: true, pcm: fromInt16Le(bytes, sampleRate) };
}

/** The outcome of a WAVE answer; `read` yields its bytes, and whatever fails in reading or decoding them is bad audio. */
export function wavResult(read: () => Uint8Array): SynthResult {
  try {
    return { ok: true, pcm: decodeWav(read()) };
  } catch (err) {
    return fail("bad_audio", err instanceof Error ? err.message : String(err));
  }
}
