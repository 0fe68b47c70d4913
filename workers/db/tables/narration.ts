import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { articles } from "./articles";
import { LANGUAGE_SOURCES } from "../../kernel/language";
import { createdAt } from "./columns";
import { listeners } from "./listeners";

/**
 * `awaiting_review` and `rejected`: a render finished for a publisher that reviews before release
 * (publisher_settings); its audio reaches no listener until an editor releases it (then `done`).
 */
export const JOB_STATES = ["queued", "running", "done", "failed", "cancelled", "awaiting_review", "rejected"] as const;
/** States of a job that has not finished: its Queue message may still run it. */
export const ACTIVE_JOB_STATES = ["queued", "running"] as const;
export const isActiveJob = (state: (typeof JOB_STATES)[number]) => (ACTIVE_JOB_STATES as readonly string[]).includes(state);
export const JOB_PRIORITIES = ["normal", "high"] as const;

/** Rendered audio, addressed by the SHA-256 cache key of provider, voice and normalised text. */
export const audioObjects = sqliteTable("audio_objects", {
  key: text("key").primaryKey(),
  provider: text("provider").notNull(),
  voice: text("voice").notNull(),
  /** The voice the render that made it was asked for; null when none was (the default). */
  requestedVoice: text("requested_voice"),
  /** Whether that render fell back: another voice than the one asked for, or after a provider failed. */
  fallback: integer("fallback", { mode: "boolean" }).notNull().default(false),
  /**
   * Digest of the lexicon entries the render applied (kernel/lexicon.ts lexiconDigest; part of the
   * cache key), null when none did: a lexicon change touches the narrations whose applicable entries
   * no longer have this digest.
   */
  lexiconDigest: text("lexicon_digest"),
  durationSeconds: real("duration_seconds").notNull(),
  /** Exact byte sizes of each stored encoding; null until that encoding is built. */
  mp3Bytes: integer("mp3_bytes"),
  opusBytes: integer("opus_bytes"),
  wavBytes: integer("wav_bytes"),
  /** Segments the text was rendered in, one master object each (objects.ts masterObjectPaths). */
  segments: integer("segments").notNull().default(1),
  /**
   * Where each paragraph of the narrated text starts, in samples at MASTER_SAMPLE_RATE from the start
   * of the master (kernel/paragraph-timings.ts), as recorded by the join; null for audio rendered
   * before timings were recorded.
   */
  paragraphStarts: text("paragraph_starts", { mode: "json" }).$type<number[]>(),
  createdAt: createdAt(),
});

/**
 * The watermark ids a stored audio carries (render/pipeline/watermark.ts markId: one per paragraph),
 * so that a payload read by the detector leads to the narrations made of that paragraph.
 */
export const audioMarks = sqliteTable(
  "audio_marks",
  {
    markId: text("mark_id").notNull(),
    audioKey: text("audio_key")
      .notNull()
      .references(() => audioObjects.key, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.markId, t.audioKey] })],
);

export const renderJobs = sqliteTable(
  "render_jobs",
  {
    id: text("id").primaryKey(),
    articleId: integer("article_id").references(() => articles.id, { onDelete: "set null" }),
    /** The listener whose render-now created the job; counts against their in-flight cap. */
    listenerId: integer("listener_id").references(() => listeners.id, { onDelete: "set null" }),
    /**
     * The listener a pre-warm rendered for: their first_render_done_at is set when this job is done.
     * Kept apart from listenerId so pre-warm renders never take the listener's render-now slots.
     */
    warmListenerId: integer("warm_listener_id").references(() => listeners.id),
    /** Text to narrate for jobs not tied to an article (POST /v1/jobs with raw text). */
    text: text("text"),
    /**
     * The publisher whose key queued a raw-text job (null: an operator's, or an article's job, whose
     * article names it): its render reuses only that publisher's stored audio (issue 40 item 3).
     */
    publisher: text("publisher"),
    /** A raw-text job's language and where it came from; an article's job takes its article's (null here). */
    language: text("language"),
    languageSource: text("language_source", { enum: LANGUAGE_SOURCES }),
    /** The voice asked for while queued or running (null: the default); once done, the voice that spoke. */
    voice: text("voice"),
    provider: text("provider"),
    /** Once done: the voice the render was asked for (null: the default), since `voice` then names the one that spoke. */
    requestedVoice: text("requested_voice"),
    /** Once done: whether the render fell back (RenderResult.fallback); null before. */
    fallback: integer("fallback", { mode: "boolean" }),
    priority: text("priority", { enum: JOB_PRIORITIES }).notNull().default("normal"),
    state: text("state", { enum: JOB_STATES }).notNull().default("queued"),
    /** Cache key of the audio this job produced; nulled by the cancelled-audio cleanup. */
    audioKey: text("audio_key"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    /** Why an editor rejected the render (state `rejected`), for whoever fixes it. */
    reviewNote: text("review_note"),
    createdAt: createdAt(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /**
     * Where a done job's time went (docs/benchmarks.md "Benchmarks", publish to audio ready): milliseconds of
     * synthesis, of encoding and of laying the watermark; queue wait is startedAt - createdAt, and the rest
     * of finishedAt - startedAt is bookkeeping (reads, storage, signing, the cache lookup). Null for a
     * cache hit, and marking for jobs done before it was timed.
     */
    synthesisMs: integer("synthesis_ms"),
    encodingMs: integer("encoding_ms"),
    markingMs: integer("marking_ms"),
    /**
     * Once done: characters the engine that spoke was sent (RenderResult.characters_synthesized) and
     * paragraphs whose stored audio was reused (paragraphs_reused); null before, and for jobs done
     * before paragraphs were stored.
     */
    charactersSynthesized: integer("characters_synthesized"),
    paragraphsReused: integer("paragraphs_reused"),
    /**
     * The id of the request that created the job (core/request-id.ts), passed by whoever creates it
     * (narration/jobs-service.ts NewJob); null for work no request started (mail intake). The render
     * Worker's log lines name it.
     */
    requestId: text("request_id"),
    /**
     * While a listener's stream renders the job (GET /v1/jobs/{job_id}/stream.mp3), until when the
     * render Queue leaves it alone: a consumer that finds the job streamed retries after this.
     */
    streamedUntil: integer("streamed_until", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("render_jobs_article_state_idx").on(t.articleId, t.state),
    index("render_jobs_listener_state_idx").on(t.listenerId, t.state),
    index("render_jobs_state_finished_idx").on(t.state, t.finishedAt),
    // The audio path looks up which articles an audio key narrates (narration/audio-access.ts).
    index("render_jobs_audio_key_idx").on(t.audioKey),
    // One in-flight render-now job per listener and article: concurrent first requests race between
    // looking for the job and inserting one, so the database takes the decision (render-now.ts).
    uniqueIndex("render_jobs_in_flight_per_listener_article_idx").on(t.listenerId, t.articleId).where(sql`${t.state} in ('queued', 'running')`),
  ],
);
