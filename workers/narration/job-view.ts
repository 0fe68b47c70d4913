import * as v from "valibot";
import { named } from "../core/schema-registry";
import { isActiveJob, JOB_PRIORITIES, JOB_STATES, type JobRow } from "../db";
import { AudioUrlFields, audioUrls, jobStreamUrl, type AudioReach } from "../kernel/public-urls";
import { FallbackField, QualityField, RequestedVoiceField, spokenQuality, StreamUrlField } from "./fields";
import { LanguageFields, type NarrationLanguage } from "../kernel/language";

const Timestamp = v.nullable(v.pipe(v.string(), v.isoTimestamp()));

/** A render job as clients see it (POST /v1/jobs, GET /v1/jobs/{job_id}). */
export const JobView = named(
  "JobView",
  v.object({
    id: v.pipe(v.string(), v.description("Job id; poll GET /v1/jobs/{job_id}.")),
    state: v.pipe(v.picklist(JOB_STATES), v.description("queued → running → done | failed; cancelled by an operator.")),
    priority: v.pipe(v.picklist(JOB_PRIORITIES), v.description("high for render-now, normal otherwise.")),
    article_slug: v.pipe(v.nullable(v.string()), v.description("The article narrated, or null for a raw-text job.")),
    ...LanguageFields,
    voice: v.pipe(v.nullable(v.string()), v.description("While queued or running, the voice asked for (null: the default); once done, the voice that spoke.")),
    provider: v.pipe(v.nullable(v.string()), v.description("The engine (provider) that spoke, once done.")),
    quality: v.pipe(v.nullable(QualityField), v.description("How the voice that spoke is made, once done: neural, or formant (eSpeak).")),
    requested_voice: RequestedVoiceField,
    fallback: v.pipe(v.nullable(FallbackField), v.description("Once done, whether the render fell back (see RenderResponse.fallback); null before.")),
    audio_key: v.pipe(v.nullable(v.string()), v.description("Cache key of the audio, once done.")),
    ...AudioUrlFields,
    stream_url: StreamUrlField,
    characters_synthesized: v.pipe(v.nullable(v.number()), v.description("Once done, characters sent to the engine: only paragraphs not stored are voiced.")),
    paragraphs_reused: v.pipe(v.nullable(v.number()), v.description("Once done, paragraphs whose stored audio was reused.")),
    error: v.pipe(v.nullable(v.string()), v.description("Why the job failed, when failed.")),
    attempts: v.pipe(v.number(), v.description("Render attempts so far (Queue retries back off exponentially).")),
    created_at: Timestamp,
    started_at: Timestamp,
    finished_at: Timestamp,
  }),
);

export type JobView = v.InferOutput<typeof JobView>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The public view of a job row; audio URLs only once the job is done and its audio still exists, the stream's while it runs. */
export function jobView(env: object, job: JobRow, articleSlug: string | null, reach: AudioReach, spoken: NarrationLanguage): JobView {
  const key = job.state === "done" ? job.audioKey : null;
  return {
    id: job.id,
    state: job.state,
    priority: job.priority,
    article_slug: articleSlug,
    ...spoken,
    voice: job.voice,
    provider: job.provider,
    quality: job.state === "done" ? spokenQuality(job.provider) : null,
    requested_voice: job.state === "done" ? job.requestedVoice : job.voice,
    fallback: job.state === "done" ? job.fallback : null,
    audio_key: key,
    ...audioUrls(env, key, reach),
    stream_url: isActiveJob(job.state) ? jobStreamUrl(env, job.id) : null,
    characters_synthesized: job.state === "done" ? job.charactersSynthesized : null,
    paragraphs_reused: job.state === "done" ? job.paragraphsReused : null,
    error: job.state === "failed" ? job.error : null,
    attempts: job.attempts,
    created_at: iso(job.createdAt),
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
  };
}
