import { ApiError } from "../core/errors";
import type { AudioFormat } from "./public-urls";
import type { LexiconEntry } from "./lexicon";
import { PROVIDERS, priceOf, type Gender, type ProviderId, type Quality, type VoiceOffer } from "./voice-catalogue";

/** Input of a synchronous render through the RENDER service binding. */
export interface RenderInput {
  text: string;
  /** A catalogue voice id; the default voice when absent. */
  voice?: string;
  /**
   * BCP 47 tag of the text's language: with no voice asked for, the best available voice of it
   * speaks (the default language when absent); no voice of another language ever stands in.
   */
  language?: string;
  /**
   * With no voice asked for, the voice the publisher set for the language (docs/publishers.md
   * "Default voice per language"): tried before the catalogue's best, which stands in for it.
   */
  defaultVoice?: string;
  /**
   * The article's publisher: the audio's tags name it, and its pronunciation lexicon applies over the
   * global one (kernel/lexicon.ts). None for raw text, which gets the global lexicon only.
   */
  publisher?: string | null;
  /** The article's title, for the audio's own tags (ID3 TIT2, Opus TITLE); none for raw text. */
  title?: string | null;
  /** The article's address, which the audio's C2PA manifest names; none for raw text. */
  url?: string | null;
  /**
   * Whose text it is (renderTenant): stored audio, whole or by the paragraph, is reused only between
   * renders of one tenant, so no render can tell whether another tenant's text holds a paragraph
   * (issue 40 item 3). None: the operator's own text (a sponsor message), shared by no caller.
   */
  tenant?: string | null;
}

/**
 * The tenant of a render (RenderInput.tenant): a listener's forwarded article is that listener's; any
 * other article its publisher's; raw text the publisher whose key sent it; an operator's raw text none.
 */
export function renderTenant(
  article: { visibility: string; publisher: string; ownerListenerId: number | null } | null | undefined,
  rawPublisher: string | null,
): string | null {
  if (article) return article.visibility === "listener_private" ? `listener:${article.ownerListenerId}` : `publisher:${article.publisher}`;
  return rawPublisher === null ? null : `publisher:${rawPublisher}`;
}

/** Outcome of a render: the cache key addresses audio/<key>.mp3 (and .opus/.wav once encoded). */
export interface RenderResult {
  key: string;
  /** The engine that spoke (a provider id). */
  provider: string;
  /** The voice that spoke. */
  voice: string;
  /** Neural or formant: how the voice that spoke is made. */
  quality: Quality;
  /** The voice asked for; null when none was (the best available voice of the default language and gender). */
  requested_voice: string | null;
  /**
   * True when the voice that spoke is not the one asked for, or a provider before it in the
   * selection order failed during this render. False for audio found in the cache.
   */
  fallback: boolean;
  /** True when the audio already existed and no provider was called. */
  cached: boolean;
  duration_seconds: number;
  /** Characters (of normalised text) of the paragraphs the engine that spoke voiced for this render; 0 when cached. */
  characters_synthesized: number;
  /** Paragraphs whose stored audio this render reused rather than voiced (all of them when cached). */
  paragraphs_reused: number;
  /** Paragraphs this render encoded; the others' MP3 frames and Opus packets were found stored (0 when cached). */
  paragraphs_encoded: number;
}

/** One voice offer and whether it can be used now (GET /v1/voices). */
export interface VoiceStatus {
  id: string;
  provider: ProviderId;
  language: string;
  gender: Gender;
  style: string;
  quality: Quality;
  price_per_million_chars: number;
  max_chars_per_request: number;
  /** True for the one offer that speaks now when a request names no voice. */
  default: boolean;
  available: boolean;
  /** Why it cannot be used now; null when it can. */
  reason: string | null;
}

/** How GET /v1/voices shows `offer`: whether it speaks by default, and why it cannot be used now (null: it can). */
export function voiceStatusOf(offer: VoiceOffer, isDefault: boolean, reason: string | null): VoiceStatus {
  return {
    id: offer.id,
    provider: offer.provider,
    language: offer.language,
    gender: offer.gender,
    style: offer.style,
    quality: offer.quality,
    price_per_million_chars: priceOf(offer),
    max_chars_per_request: PROVIDERS[offer.provider].maxCharsPerRequest,
    default: isDefault,
    available: reason === null,
    reason,
  };
}

/** The catalogue as the render Worker can use it now. */
export interface VoiceCatalogueStatus {
  /** The voice that speaks when a request names none; null when no provider is available at all. */
  default_voice: string | null;
  default_provider: ProviderId | null;
  /** Every offer, in the order the selection rule prefers them. */
  voices: VoiceStatus[];
}

/** Encodings built on first request from the stored master; MP3 is written at render time. */
export type LazyFormat = Exclude<AudioFormat, "mp3">;

/** The RPC surface of the render Worker's `RenderService` entrypoint, bound in the API Worker as RENDER. */
export interface RenderRpc {
  /** Answers "ok": GET /v1/health asks it to learn that the render Worker is there. */
  ping(): Promise<string>;
  render(input: RenderInput): Promise<RenderResult>;
  /** Every voice offer and whether this render Worker can use it now (configuration and provider health). */
  voices(): Promise<VoiceCatalogueStatus>;
  /** Builds `format` for `key` if missing, stores it and records its size; null for an unknown key. */
  encode(key: string, format: LazyFormat): Promise<{ bytes: number } | null>;
  /**
   * The MP3 of a queued or running job as it renders, from its ID3 tag and first paragraph on: the
   * frames of the file that is stored when it ends (docs/narration.md "Listening while it renders");
   * null when the job is unknown or finished.
   */
  stream(jobId: string): Promise<ReadableStream<Uint8Array> | null>;
  /**
   * An Ogg Opus file's first stream as mono 16-bit samples at MASTER_SAMPLE_RATE, at most
   * `maxSamples`, by the libopus the render Worker bundles (POST /v1/marks/detect reads it); null
   * when it is not Ogg Opus.
   */
  decodeOpus(bytes: Uint8Array, maxSamples: number): Promise<Int16Array | null>;
}

/**
 * The render Worker's RPC surface (service binding RENDER). `wrangler types` types a service
 * binding without its entrypoint's methods, so this is the one place that names them.
 */
export function renderService(env: object): RenderRpc {
  const binding = (env as { RENDER?: RenderRpc }).RENDER;
  if (!binding) throw new ApiError("unavailable", "the render service is not bound");
  return binding;
}

/** A render job the render Worker has claimed: what to narrate and in which voice. */
export interface ClaimedJob {
  jobId: string;
  text: string;
  voice?: string;
  /** The language to speak it in (RenderInput.language): the article's, or a raw-text job's own. */
  language?: string;
  /** The publisher's default voice for that language when no voice was asked for (RenderInput.defaultVoice). */
  defaultVoice?: string;
  /** The article's publisher, which the audio's tags carry and whose lexicon applies; null for raw text. */
  publisher?: string | null;
  /** The article's title, which the audio's tags carry; null for raw text. */
  title?: string | null;
  /** The article's address (its original, else its page here), which the audio's C2PA manifest names; null for raw text. */
  url?: string | null;
  /** Whose text it is: stored audio is reused only within it (RenderInput.tenant). */
  tenant?: string | null;
  /** The article's content hash when claimed: the article takes the audio only if it still has it. */
  contentHash: string | null;
  /**
   * The pronunciation lexicon the render applies (the global one, with the publisher's entries over it),
   * handed over with the job so that the render asks the store for nothing else before it looks for audio.
   */
  lexicon: LexiconEntry[];
  /** The id of the request that created the job, for the render Worker's log lines. */
  requestId: string | null;
  /** The job's priority (a render-now or an agent's is high). */
  priority: "normal" | "high";
  /** Whose it is, for fairness between them: the article's publisher, "raw" for raw text. */
  owner: string;
  /**
   * Whether this claim runs the job (marks it done or failed). False for a stream that found the job
   * being streamed already: it renders the same audio for its listener and leaves the job to that stream.
   */
  owned: boolean;
  /**
   * The attempt this claim made (render_jobs.attempts as it set them): a runner whose attempt is no
   * longer the job's has lost the job to a listener's stream (RenderStoreRpc.holdsJob).
   */
  attempt: number;
}

/** What the render Queue gets for a job a listener's stream is rendering: try again after this. */
export interface JobStreamed {
  streamedForSeconds: number;
}

/**
 * What the render Queue gets for a job whose owner had the last render while another owner's job
 * waits: the job was sent to the back of the Queue anew (a fresh message), so this one is acked.
 */
export interface JobDeferred {
  deferred: true;
}

/**
 * How long a stream holds its job against the render Queue: longer than the longest render (60,000
 * characters, about 5 minutes on one core), so a stream cut off with its render leaves the job to the
 * Queue's next delivery after it.
 */
export const STREAM_LEASE_MS = 10 * 60_000;

/**
 * What a finished job hands back, in one call: the audio it produced, the row of that audio to record
 * when this render stored it (null when it was found stored), and where the time went (null for a
 * cache hit).
 */
export interface JobOutcome {
  result: RenderResult;
  audio: StoredAudio | null;
  /** The watermark ids of the new audio's paragraphs (RenderStoreRpc.recordAudio). */
  markIds: string[];
  synthesisMs: number | null;
  encodingMs: number | null;
  markingMs: number | null;
}

/** A row of stored audio, as the render Worker reads and writes it. */
export interface StoredAudio {
  key: string;
  provider: string;
  voice: string;
  /** The voice the render that made it was asked for (null: none); see RenderResult. */
  requestedVoice: string | null;
  /** Whether that render fell back (RenderResult.fallback). */
  fallback: boolean;
  /** Digest of the lexicon entries the render applied (kernel/lexicon.ts lexiconDigest); null when none. */
  lexiconDigest: string | null;
  durationSeconds: number;
  segments: number;
  mp3Bytes: number | null;
  opusBytes: number | null;
  wavBytes: number | null;
  paragraphStarts: number[] | null;
}

/**
 * The API Worker's `RenderStore` entrypoint, bound in the render Worker as STORE: the only way the
 * render Worker reaches D1, R2 and the render gates. One Worker owns all state, so that locally the
 * two `wrangler dev` processes never open the same SQLite files (docs/architecture.md "What runs where"); on
 * Cloudflare the call is a service binding within the same data centre.
 */
export interface RenderStoreRpc {
  /**
   * Marks a queued or running job running and says what to narrate; null when it is gone or finished.
   * By the Queue (the default): a job a stream is rendering answers JobStreamed; a job of one of
   * `lastOwners` (whose jobs the consumer's lanes claimed last) while a job of at least its priority of
   * an owner outside them is queued is deferred (JobDeferred), so one publisher's backlog never holds
   * back another's article for more than the renders in progress. By a stream: a queued job, or one the
   * Queue is running, is claimed for STREAM_LEASE_MS (the Queue's render stops before its next
   * paragraph: holdsJob), so a job is never voiced twice at once; one another stream holds is not
   * owned (ClaimedJob.owned).
   */
  claimJob(jobId: string, by?: "queue" | "stream", lastOwners?: string[]): Promise<ClaimedJob | JobStreamed | JobDeferred | null>;
  /**
   * Claims for the Queue, as claimJob does, the next queued job never tried: a high one first, then one
   * of an owner outside `lastOwners`, then the oldest. For a lane of the consumer whose batch is taken
   * while another lane still renders (the Queue sends its next batch only when this one ends); the
   * job's own message, when it comes, finds it running or done. Null when no such job waits.
   */
  claimNext(lastOwners?: string[]): Promise<ClaimedJob | null>;
  /** Whether the job is still running as `attempt` (ClaimedJob.attempt): false once a stream took it over, or it ended. */
  holdsJob(jobId: string, attempt: number): Promise<boolean>;
  /**
   * Records the job's new audio (JobOutcome.audio), marks the running job done and gives its article the
   * audio, in one batch; then releases the listener's render slot and tells the publisher's webhooks.
   */
  completeJob(claim: ClaimedJob, outcome: JobOutcome): Promise<void>;
  /**
   * Puts a running job back in the queue with the error of its failed attempt; with `requeue`, also
   * sends it to the render Queue anew (a stream's render failed: the Queue's own message of the job
   * waits out the stream's lease).
   */
  retryJob(jobId: string, error: string, requeue?: boolean): Promise<void>;
  /** Marks an unfinished job failed (keeping an earlier error) and releases its slot. */
  failJob(jobId: string, error: string): Promise<void>;
  /** The stored audio rows among `keys`. */
  findAudio(keys: string[]): Promise<StoredAudio[]>;
  /**
   * Records new audio once every one of its objects is stored (a render that is no job's: RenderRpc.render),
   * with the watermark ids its paragraphs carry (render/pipeline/watermark.ts markId), which lead a detected
   * mark back to it.
   */
  recordAudio(audio: StoredAudio, markIds?: string[]): Promise<void>;
  /** Records the size of an encoding built after the render. */
  recordEncoding(key: string, format: LazyFormat, bytes: number): Promise<void>;
  /**
   * Objects travel as HTTP bodies: `PUT {RENDER_STORE_ORIGIN}/objects/{path}` stores the body, whose
   * Content-Length R2 needs before the bytes, and `GET` of the same URL answers the object or 404. A
   * body streams with no message limit and keeps its length across the binding (an RPC argument
   * stream would not).
   */
  fetch(request: Request): Promise<Response>;
  /**
   * Objects in one call, for the many small ones a render reads (its stored paragraphs' headers and
   * encoded units): each read in order answered with its bytes, or null where there is no such object,
   * for as many reads as fit in WHOLE_OBJECT_BYTES (a result crosses as one message). The answer is
   * those first reads only: the caller asks again for the rest, and reads one larger than that alone
   * (answered by none) through fetch (render/pipeline/objects.ts readObjects).
   */
  readObjects(reads: ObjectRead[]): Promise<(ObjectBytes | null)[]>;
  /**
   * Stores at `path` the pieces laid end to end, given bytes and ranges of objects already stored, and
   * answers its size: a re-render's MP3 is mostly its reused paragraphs' frames, which are in their
   * stored units, so they need not cross from the render Worker again (render/pipeline/store.ts
   * putMp3). The whole must hash to `sha256` (hex, what the render signed) and be at most
   * WHOLE_OBJECT_BYTES; otherwise, or when a piece is not stored, it stores nothing and answers why,
   * and the render sends the bytes.
   */
  composeObject(path: string, pieces: ObjectPiece[], sha256: string, contentType?: string): Promise<number | { refused: string }>;
  /** The size of each object, null where one is missing. */
  objectSizes(paths: string[]): Promise<(number | null)[]>;
  /**
   * The pronunciation lexicon for `publisher`'s narrations (the global one, with its own entries over it);
   * the global one for null. A claimed job carries its own (ClaimedJob.lexicon).
   */
  lexiconFor(publisher: string | null): Promise<LexiconEntry[]>;
}

/** An object to read in readObjects: whole, or `length` bytes of it from `offset` (fewer at its end). */
export interface ObjectRead {
  path: string;
  range?: { offset: number; length: number };
}

/** A piece of an object composeObject writes: bytes, or a range of an object already stored. */
export type ObjectPiece = Uint8Array | { path: string; range: { offset: number; length: number } };

/** The bytes read of an object (all of it, or the range asked for) and its whole size. */
export interface ObjectBytes {
  bytes: Uint8Array;
  size: number;
}

/** The origin of RenderStore's object URLs; only its path is read. */
export const RENDER_STORE_ORIGIN = "https://render-store.internal";

/**
 * An object up to this size crosses to the RenderStore as one buffer, read whole on both sides; a
 * larger one streams, so neither isolate holds more than this of it (a master is always sent as a
 * stream, its stored paragraphs read as it is written: render/pipeline/store.ts). A
 * streamed body passes through the runtime's JavaScript streams chunk by chunk, and a render stores
 * hundreds of objects (each paragraph, its encodings, the audio): the API process of `npm start` used
 * 41 to 42 CPU seconds while the demo narrated with every object streamed, 14 to 18 once they crossed
 * whole (bench/results.md "Issue 44: objects cross whole"). Every paragraph, unit and word-timing file
 * is far under it, and so is the MP3 of an article of a quarter of an hour.
 */
export const WHOLE_OBJECT_BYTES = 8 << 20;

/** The URL of the object at R2 `path` on the RenderStore. */
export const renderStoreObjectUrl = (path: string) => `${RENDER_STORE_ORIGIN}/objects/${path}`;

/**
 * The RenderStore bound as STORE in the render Worker's `env`. `wrangler types` types only the API
 * Worker's bindings, and a service binding without its entrypoint's methods, so this is the one
 * place that names them.
 */
export function renderStore(env: object): RenderStoreRpc {
  const binding = (env as { STORE?: RenderStoreRpc }).STORE;
  if (!binding) throw new Error("the render store is not bound (STORE)");
  return binding;
}

/**
 * The most characters (after whitespace is collapsed) of one segment: a longer text is rendered in
 * segments of at most this many, one at a time. A segment holds its audio in a 128 MB isolate and
 * peaks at 4 bytes a sample while joining (docs/narration.md, "Memory and long articles"): about 19 minutes of
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
