import type { AudioFormat } from "./audio-urls";

/** Input of a synchronous render through the RENDER service binding. */
export interface RenderInput {
  text: string;
  /** A catalogue voice id; the default voice when absent. */
  voice?: string;
}

/** Outcome of a render: the cache key addresses audio/<key>.mp3 (and .opus/.wav once encoded). */
export interface RenderResult {
  key: string;
  provider: string;
  voice: string;
  /** True when the audio already existed and no provider was called. */
  cached: boolean;
  duration_seconds: number;
}

/** Encodings built on first request from the stored master; MP3 is written at render time. */
export type LazyFormat = Exclude<AudioFormat, "mp3">;

/** The RPC surface of the render Worker's `RenderService` entrypoint, bound in the API Worker as RENDER. */
export interface RenderRpc {
  render(input: RenderInput): Promise<RenderResult>;
  /** Builds `format` for `key` if missing, stores it and records its size; null for an unknown key. */
  encode(key: string, format: LazyFormat): Promise<{ bytes: number } | null>;
}

/**
 * The most characters (after whitespace is collapsed) of one segment: a longer text is rendered in
 * segments of at most this many, one at a time. A segment holds its audio in a 128 MB isolate and
 * peaks at 4 bytes a sample while joining (README, "Memory and long articles"): about 19 minutes of
 * 24 kHz audio fit. 10,000 characters is about 13 minutes for a slow narrator (750 characters a
 * minute; eSpeak reads about 1,050), a join peak of about 77 MB, which leaves about 35 MB for the
 * engines, the encoder and garbage not yet collected.
 */
export const SEGMENT_CHARS = 10_000;

/**
 * The most characters one render narrates, in segments: about an hour of speech. Memory no longer
 * bounds it (one segment's audio is held at a time, plus the MP3 so far at 8 KB a second); the
 * render's wall time does, and the MP3 of a slow narrator's 80 minutes is about 38 MB.
 */
export const MAX_NARRATED_CHARS = 60_000;

/**
 * Expected render failures. RPC keeps only an error's message, so render() throws
 * `new Error("<code>: <detail>")` and callers read the code back with renderErrorCode().
 */
export const RENDER_ERRORS = ["unknown_voice", "no_provider", "too_long"] as const;
export type RenderErrorCode = (typeof RENDER_ERRORS)[number];

/** The RenderErrorCode carried by an error thrown from render(), or null for a surprise. */
export function renderErrorCode(err: unknown): RenderErrorCode | null {
  const code = err instanceof Error ? err.message.split(":", 1)[0] : "";
  return (RENDER_ERRORS as readonly string[]).includes(code) ? (code as RenderErrorCode) : null;
}
