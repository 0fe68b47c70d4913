import * as v from "valibot";
import { ApiError } from "../core/errors";
import { unknownVoice } from "./jobs-service";
import { renderErrorCode, SEGMENT_CHARS } from "../kernel/render-contract";
import { PROVIDERS, QUALITIES, type ProviderId, type Quality } from "../kernel/voice-catalogue";

/** Field schemas shared by the narration request bodies. */

export const VoiceField = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(64),
  v.regex(/^[A-Za-z0-9_.:@-]+$/, "must be a voice id from GET /v1/voices"),
  v.description("Voice id from GET /v1/voices; the default voice when omitted."),
);

/** How a voice is made (kernel/voice-catalogue.ts QUALITIES). */
export const QualityField = v.pipe(
  v.picklist(QUALITIES),
  v.description(
    "How the voice is made: neural (a trained network: Aura, the cloud providers, a self-hosted server) or formant (eSpeak NG: intelligible, robotic).",
  ),
);

/** The voice a render was asked for. */
export const RequestedVoiceField = v.pipe(
  v.nullable(v.string()),
  v.description("The voice asked for; null when none was, and the best available voice of the default language and gender (en-US, female) spoke."),
);

/** Where a job in progress can be heard (GET /v1/jobs/{job_id}/stream.mp3). */
export const StreamUrlField = v.pipe(
  v.nullable(v.string()),
  v.description(
    "While queued or running: an MP3 that plays as the render makes it, from its first paragraph (GET /v1/jobs/{job_id}/stream.mp3); null otherwise.",
  ),
);

export const FallbackField = v.pipe(
  v.boolean(),
  v.description(
    'True when the voice that spoke is not the one asked for, or a provider before it in the selection order failed during the render (docs/narration.md "Providers and the selection rule"); false for audio found in the cache.',
  ),
);

/** The quality of the voices of `provider`, or null for a provider outside the catalogue. */
export function spokenQuality(provider: string | null): Quality | null {
  return provider && provider in PROVIDERS ? PROVIDERS[provider as ProviderId].quality : null;
}

/**
 * Longest text one synchronous render takes: one segment (render-contract.ts). The offline engine
 * voices about 200 characters a second on one core, so MAX_NARRATED_CHARS would hold an API request
 * for about five minutes; longer texts go through POST /v1/jobs, whose consumer has the time.
 */
export const MAX_RENDER_CHARS = SEGMENT_CHARS;
/**
 * Longest text of one article. An article may be stored and listed up to this length, but only one
 * of at most MAX_NARRATED_CHARS can be narrated: a longer one's job fails with "too_long".
 */
export const MAX_ARTICLE_CHARS = 200_000;

/**
 * Turns the render Worker's expected failures into API errors; anything else is rethrown. "too_long"
 * cannot reach here: MAX_RENDER_CHARS already bounds the text in the request schema (422).
 */
export function renderFailure(err: unknown): never {
  const code = renderErrorCode(err);
  if (code === "unknown_voice") throw unknownVoice();
  if (code === "no_provider") {
    throw new ApiError("unavailable", "no text-to-speech provider is available for this voice right now", { "Retry-After": "30" });
  }
  throw err;
}
