import type { Pcm } from "../engine/pcm";

/**
 * Why a provider could not voice a request: expected failures, returned as values. `redirected`: the
 * provider answered with a redirect, never followed; `too_large`: its answer passed MAX_AUDIO_BYTES
 * (http.ts) as it streamed.
 */
export type FailureReason =
  | "rate_limited"
  | "invalid_voice"
  | "upstream_5xx"
  | "timeout"
  | "network"
  | "unauthorized"
  | "rejected"
  | "bad_audio"
  | "redirected"
  | "too_large";

export interface SynthFailure {
  ok: false;
  reason: FailureReason;
  /** For logs and the job's error text; never sent to API clients. */
  detail: string;
}

export type SynthResult = { ok: true; pcm: Pcm } | SynthFailure;

export const fail = (reason: FailureReason, detail: string): SynthFailure => ({ ok: false, reason, detail });

/**
 * Failures that say the provider itself is in trouble (rather than this request being wrong), so it
 * sits out a cool-down before it is tried again.
 */
export function marksUnhealthy(reason: FailureReason): boolean {
  return reason === "rate_limited" || reason === "upstream_5xx" || reason === "timeout" || reason === "network" || reason === "unauthorized";
}
