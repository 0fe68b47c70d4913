import * as v from "valibot";
import { named } from "../core/schema-registry";
import { type ArticleRow, isActiveJob, JOB_STATES, type JobRow } from "../db";
import { AudioUrlFields, audioReachOf, audioUrls, jobStreamUrl } from "../kernel/public-urls";
import { FallbackField, QualityField, spokenQuality, StreamUrlField } from "./fields";
import { LanguageFields } from "../kernel/language";

/** What render-now and its polling path answer about an article's audio. */
export const ArticleAudio = named(
  "ArticleAudio",
  v.object({
    slug: v.string(),
    ...LanguageFields,
    state: v.pipe(
      v.picklist(["none", ...JOB_STATES]),
      v.description("done when the audio is ready; queued/running while rendering; none when never rendered."),
    ),
    job_id: v.pipe(v.nullable(v.string()), v.description("The job the state comes from.")),
    ...AudioUrlFields,
    stream_url: StreamUrlField,
    listen_seconds: v.pipe(v.nullable(v.number()), v.description("Real duration in whole seconds, when ready.")),
    provider: v.pipe(v.nullable(v.string()), v.description("The engine (provider) that spoke, when ready.")),
    voice: v.pipe(v.nullable(v.string()), v.description("The voice that spoke, when ready.")),
    quality: v.pipe(v.nullable(QualityField), v.description("How the voice that spoke is made, when ready.")),
    fallback: v.pipe(v.nullable(FallbackField), v.description("Whether the render fell back (see RenderResponse.fallback), when ready.")),
    error: v.pipe(v.nullable(v.string()), v.description("Why the last render failed, when failed.")),
  }),
);

export type ArticleAudio = v.InferOutput<typeof ArticleAudio>;

/** The view from the done job (audio ready, lasting `seconds`) or else the latest job, if any. */
export function articleAudio(env: object, article: ArticleRow, done: JobRow | undefined, latest: JobRow | undefined, seconds: number | null): ArticleAudio {
  const key = done?.audioKey ?? null;
  const job = done ?? latest;
  return {
    slug: article.slug,
    language: article.language,
    language_source: article.languageSource,
    state: key ? "done" : (job?.state ?? "none"),
    job_id: job?.id ?? null,
    ...audioUrls(env, key, audioReachOf(article)),
    stream_url: !key && job && isActiveJob(job.state) ? jobStreamUrl(env, job.id) : null,
    listen_seconds: key ? seconds : null,
    provider: key ? done!.provider : null,
    voice: key ? done!.voice : null,
    quality: key ? spokenQuality(done!.provider) : null,
    fallback: key ? done!.fallback : null,
    error: !key && job?.state === "failed" ? job.error : null,
  };
}
